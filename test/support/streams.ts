/** Test helpers for byte streams (the SSE readers' tests). */

/** A body stream that delivers exactly these reads, in order (one `pull` each): cuts at chosen bytes. */
export function reads(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}
