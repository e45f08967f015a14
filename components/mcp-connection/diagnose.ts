/**
 * The way in to the CORS doctor (cors-doctor.ts), which loads on its first use:
 * a page whose connections never fail does not download it (issue 18).
 *
 * @module
 */
import { McpClientError, type McpError } from '../../src/index.js';
import type { CorsDiagnosis, CorsDoctorInput } from './cors-doctor.js';

export type { CorsDiagnosis, CorsDoctorInput } from './cors-doctor.js';

/**
 * Probes `url` to explain a CORS-looking failure of a request from this page:
 * one simple request (does the server answer this origin at all?), then one
 * preflighted POST (`{}` body, credentials omitted) per request header the
 * failing request sent or either era always sends (spec: basic/transports,
 * Streamable HTTP; basic/versioning for the two eras' headers). Each probe
 * is a real request to the server; a refused probe is a finding, not an error.
 * The doctor's code loads on the first call.
 *
 * @param url - the MCP endpoint that failed.
 * @param input - the failing request's error (its `data.cors` lists what it sent), the caller's
 *   headers, the OAuth in use and the era preference.
 * @returns `problem` (`unreachable`: no server answered at all, not even an opaque request;
 *   `origin`: the server answers but not to this origin; `headers`: `missingHeaders` are not
 *   allowed; `unknown`: every header passes), an `era` to connect in when that is a fix, and the
 *   `fix` to make on the server, in words.
 * @throws TypeError when the doctor's code cannot be loaded (offline).
 */
export async function diagnoseCors(url: string, input: CorsDoctorInput = {}): Promise<CorsDiagnosis> {
  return (await import('./cors-doctor.js')).diagnoseCors(url, input);
}

/** Whether an error is a browser's refusal of a request that the core could not explain further (it lists what the request sent). */
export function looksLikeCors(error: McpError): boolean {
  return McpClientError.isInstance(error) && (error.code === 'network' || error.code === 'cors') && Array.isArray((error.data.cors as { requestHeaders?: unknown } | undefined)?.requestHeaders);
}

/**
 * `failure`, explained by the doctor when it looks like CORS: the typed
 * `cors` error the connection reports. Where the doctor cannot load (offline),
 * the failure as it is.
 */
export async function explainFailure(url: string, failure: McpError, input: CorsDoctorInput): Promise<McpError> {
  if (!looksLikeCors(failure)) return failure;
  let doctor: typeof import('./cors-doctor.js');
  try {
    doctor = await import('./cors-doctor.js');
  } catch {
    return failure;
  }
  return doctor.corsError(await doctor.diagnoseCors(url, { ...input, error: failure }), failure);
}
