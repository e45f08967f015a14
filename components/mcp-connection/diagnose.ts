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
 * Probes `url` to explain a CORS-looking failure.
 *
 * @param input - the failing request's error, the caller's headers, the OAuth in use and the era preference.
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
