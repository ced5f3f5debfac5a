// Waiting for something with a limit. The limit's timer is cleared once the wait is over: a timer left
// running keeps the suite's worker alive after its last case (a 30 s limit on an action that ended at once
// held a worker 26 s past its last case, the tail of a shard's run).

/** What `promise` resolves to, or `late` when it has not settled after `ms`. */
export async function within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
