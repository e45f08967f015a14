import { McpConnection, McpToolForm } from 'mcp-web-elements/react';
import type { McpToolResultEvent } from 'mcp-web-elements/elements';
import { useState } from 'react';

export function WrappedApp({ server }: { server: string }) {
  const [said, setSaid] = useState('');
  return (
    <main>
      <h1>React wrappers</h1>
      <McpConnection serverUrl={server} noListen>
        <McpToolForm toolName="get_weather" noDrafts onMcpToolResult={(event: McpToolResultEvent) => setSaid(`${event.detail.tool} returned ${event.detail.result.content?.length ?? 0} block(s)`)} />
      </McpConnection>
      <p role="status">{said}</p>
      {/* @ts-expect-error: toolName is a string */}
      {Math.random() > 2 && <McpToolForm toolName={1} />}
    </main>
  );
}
