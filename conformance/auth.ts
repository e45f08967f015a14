/**
 * Authorization scenarios of the conformance suite (`auth/*`). Placeholder until
 * the browser OAuth work lands: the adapter reports the scenario as unsupported.
 */
import type { McpClient, McpClientOptions } from '../src/index.js';

export interface AuthScenarioInput {
  url: string;
  scenario: string;
  context: Record<string, any>;
  newClient(options?: McpClientOptions): McpClient;
  log(...args: unknown[]): void;
}

export async function authScenario(input: AuthScenarioInput): Promise<number> {
  input.log('authorization is not implemented yet');
  return 2;
}
