import 'mcp-web-elements/elements';
import type {} from 'mcp-web-elements/react-jsx';
import type { McpToolResultEvent } from 'mcp-web-elements/elements';
import { useState } from 'react';

export function App({ server }: { server: string }) {
  const [said, setSaid] = useState('');
  const onResult = (event: McpToolResultEvent) => setSaid(`${event.detail.tool} returned ${event.detail.result.content?.length ?? 0} block(s)`);
  return (
    <main>
      <h1>React 19</h1>
      <mcp-connection server-url={server} no-listen>
        <mcp-tool-form tool-name="get_weather" noDrafts onmcp-tool-result={onResult} />
        <mcp-elicitation-dialog policy="ask" />
      </mcp-connection>
      <p role="status">{said}</p>
      <TypeChecks />
    </main>
  );
}

/** Never rendered: what the types must refuse (each line fails the typecheck if it is accepted). */
function TypeChecks() {
  if (Math.random() < 2) return null;
  return (
    <>
      {/* @ts-expect-error: a property takes the element's own type */}
      <mcp-tool-form tool={42} />
      {/* @ts-expect-error: the listener gets the kit's event class, not an error event */}
      <mcp-tool-form onmcp-tool-result={(event: McpToolResultEvent & { detail: { error: Error } }) => event.detail.error} />
      {/* @ts-expect-error: protocol is auto, modern or legacy */}
      <mcp-connection protocol="2026" />
    </>
  );
}
