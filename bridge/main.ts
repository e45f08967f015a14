/**
 * Runs the command line from the sources (`tsx bridge/main.ts bridge -- …`), as
 * `npm start` does; the published `bin/mcp-web-elements.js` runs the built one.
 */
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2));
