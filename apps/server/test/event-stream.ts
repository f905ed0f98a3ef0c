/**
 * Reading the event stream (`GET events`) as a browser does: `fetch` with a reader, each block
 * parsed into its fields. Shared by the events tests, the scale-out test and the bench.
 */
export type Block = {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
};

/** An open stream: every block read so far, and ways to wait for more. */
export type Stream = {
  status: number;
  headers: Headers;
  blocks: Block[];
  /** The change and presence events, parsed. */
  events(kind?: string): Array<{ id?: string; event: string; data: Record<string, unknown> }>;
  /** Resolves once a block matching `match` has come (any block read from now or before). */
  waitFor(match: (b: Block) => boolean, ms?: number): Promise<Block>;
  ended: Promise<void>;
  close(): void;
};

export async function openStream(
  apiBase: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${apiBase}/events`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
    signal: controller.signal,
  });
  const blocks: Block[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const text = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const block: Block = {};
          for (const line of text.split('\n')) {
            if (line.startsWith(':')) block.comment = line.slice(1).trim();
            const match = /^(id|event|data|retry): ?(.*)$/.exec(line);
            if (match) block[match[1] as 'id'] = match[2];
          }
          blocks.push(block);
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Aborted by the test.
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  let done = false;
  void ended.then(() => (done = true));
  return {
    status: res.status,
    headers: res.headers,
    blocks,
    events: (kind) =>
      blocks
        .filter((b) => b.event && b.data && (!kind || b.event === kind))
        .map((b) => ({ id: b.id, event: b.event!, data: JSON.parse(b.data!) })),
    waitFor: (match, ms = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = blocks.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`the stream ended first: ${JSON.stringify(blocks)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`not within ${ms} ms: ${JSON.stringify(blocks)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    ended,
    close: () => controller.abort(),
  };
}

export const change = (area: string, action: string, id: number) => (b: Block) => {
  if (b.event !== 'change' || !b.data) return false;
  const data = JSON.parse(b.data) as { area: string; action: string; id: number };
  return data.area === area && data.action === action && data.id === id;
};
export const presenceOf = (area: string, id: number, editorIds: number[]) => (b: Block) => {
  if (b.event !== 'presence' || !b.data) return false;
  const data = JSON.parse(b.data) as { area: string; id: number; editors: Array<{ id: number }> };
  return (
    data.area === area &&
    data.id === id &&
    JSON.stringify(data.editors.map((e) => e.id)) === JSON.stringify(editorIds)
  );
};
