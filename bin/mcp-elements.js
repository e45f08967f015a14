#!/usr/bin/env node
// The package's command line: `mcp-elements bridge [options] -- <command> [args…]`
// (README, "Local stdio servers"). The code is the built `mcp-elements/bridge` entry.
import { main } from '../dist/lib/bridge.js';

process.exitCode = await main(process.argv.slice(2));
