/**
 * The open layers (dialogs, side panels, prompts), newest on top: one Esc closes only the top one.
 * Mantine's modals and drawers each listen for Esc on the window, so a History panel opened from
 * an edit dialog closed with the dialog (which then asked "Discard changes?") on one Esc (issue
 * #35). Every layer that closes on Esc asks `useTopLayer(opened)` and closes on Esc only when it
 * is on top.
 */
import { useLayoutEffect, useState, useSyncExternalStore } from 'react';

const stack: symbol[] = [];
const watchers = new Set<() => void>();

function notify() {
  for (const watcher of watchers) watcher();
}

function subscribe(watcher: () => void) {
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

/** Whether this layer, while `opened`, is the top one (the one Esc closes). */
export function useTopLayer(opened: boolean): boolean {
  const [me] = useState(() => Symbol('layer'));
  // Before paint, so the layer below already ignores an Esc pressed the moment this one shows.
  useLayoutEffect(() => {
    if (!opened) return;
    stack.push(me);
    notify();
    return () => {
      const at = stack.lastIndexOf(me);
      if (at >= 0) stack.splice(at, 1);
      notify();
    };
  }, [opened, me]);
  return useSyncExternalStore(subscribe, () => stack.at(-1) === me);
}
