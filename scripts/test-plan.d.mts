/** Types of scripts/test-plan.mjs (for the test that reads it). */
export interface PlannedSuite {
  name: string;
  phase?: string;
  lead?: boolean;
}
export declare function plan<S extends PlannedSuite>(suites: S[]): { suites: S[]; streamed: S | undefined }[];
export declare function outputBlock(name: string, output: string): string;
