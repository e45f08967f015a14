/**
 * What every call-overhead candidate exposes: the same three steps a minimal
 * page performs (connect in `open`, list the tools, call `echo`).
 */
export interface Candidate {
  /** Lists every tool (all pages, bypassing caches); resolves to the tools as the client hands them over. */
  listTools(): Promise<unknown[]>;
  /** Calls the `echo` tool; resolves to the first text block. */
  call(text: string): Promise<string>;
  close(): Promise<void>;
}

export type OpenCandidate = (url: string) => Promise<Candidate>;
