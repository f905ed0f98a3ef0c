/**
 * The signed-in tab's one event stream (API.md "Events"): `GET events` read with fetch and the
 * bearer header (never a token in a URL), parsed as server-sent events, resumed after a drop with
 * `Last-Event-ID` (ids already had are dropped: a replay may repeat a few), and closed on
 * sign-out. Lists hear `change` events (useChangeEvents) and who edits which row (usePresence);
 * the shell hears `access` (the owner changed this account's grants: read them again).
 * When the stream cannot be had (it fails again and again, the server has none, the browser is
 * offline) the tab falls back to refetching the open lists every 30 s and on focus (useResync),
 * and keeps trying the stream now and then. Loaded with the signed-in shell only.
 */
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { createParser } from 'eventsource-parser';
import {
  API_BASE,
  PATHS,
  changeEventData,
  presenceAnswer,
  presenceEventData,
  type ChangeEventData,
  type EventAccount,
  type EventArea,
} from '@master-admin/contract';
import { api, idempotencyKey } from './api';
import { session } from './session';

/** `connecting` until the first stream opens; `fallback` while lists refetch on a timer. */
export type StreamState = 'stopped' | 'connecting' | 'live' | 'fallback';

/** Failed attempts in a row before the lists fall back to refetching. */
export const FALLBACK_AFTER_FAILURES = 3;
/** How often open lists refetch while the stream is unavailable. */
export const FALLBACK_REFETCH_MS = 30_000;
/** The server writes at least every 25 s: this long without a byte, the connection is dead. */
export const STALL_MS = 45_000;
/** Reconnection back-off: 1 s, doubled per failure, at most this (with jitter). */
export const MAX_BACKOFF_MS = 30_000;
/** With no stream on this server (404), the next try waits this long. */
const UNAVAILABLE_RETRY_MS = 5 * 60_000;
/** Event ids remembered to drop a replay's repeats. */
const SEEN_MAX = 2_000;
/** A focus refetches lists (in fallback) at most this often. */
const FOCUS_GAP_MS = 5_000;

const EMPTY: readonly EventAccount[] = Object.freeze([]);

const presenceKey = (area: string, id: number) => `${area}:${id}`;

type ChangeListener = (event: ChangeEventData) => void;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      window.removeEventListener('online', done);
      resolve();
    }
    signal.addEventListener('abort', done);
    // Back online: try at once.
    window.addEventListener('online', done);
  });

type Outcome = 'ended' | 'failed' | 'unavailable' | 'unauthorized';

/** The stream, its listeners and what it has told. One per page (`events` below). */
export class EventHub {
  #state: StreamState = 'stopped';
  #abort: AbortController | undefined;
  #lastId: string | undefined;
  #retryMs = 2_000;
  #seen = new Set<string>();
  #me: number | undefined;
  #changes = new Set<ChangeListener>();
  #resyncs = new Set<() => void>();
  #accessChanges = new Set<() => void>();
  #watchers = new Set<() => void>();
  /** Who else edits each row (`area:id`), replaced as a whole on every change (a snapshot). */
  #presence: ReadonlyMap<string, readonly EventAccount[]> = new Map();
  #fallbackTimer: ReturnType<typeof setInterval> | undefined;
  #lastFocusResync = 0;
  /** Whether events may have been missed since lists were fetched (refetch them when live). */
  #missed = false;

  get state(): StreamState {
    return this.#state;
  }

  /** The signed-in account (from its token); undefined when the token says none. */
  get me(): number | undefined {
    return this.#me;
  }

  /** Opens the stream (once; again after `stop`). */
  start() {
    if (this.#abort) return;
    const abort = new AbortController();
    this.#abort = abort;
    this.#me = session.accountId() ?? undefined;
    this.#setState('connecting');
    window.addEventListener('focus', this.#onFocus);
    void this.#run(abort.signal);
  }

  /** Closes the stream and forgets what it told (sign-out). */
  stop() {
    this.#abort?.abort();
    this.#abort = undefined;
    this.#lastId = undefined;
    this.#seen.clear();
    this.#missed = false;
    this.#presence = new Map();
    window.removeEventListener('focus', this.#onFocus);
    this.#setState('stopped');
  }

  subscribe = (watcher: () => void) => {
    this.#watchers.add(watcher);
    return () => void this.#watchers.delete(watcher);
  };

  presenceSnapshot = () => this.#presence;
  stateSnapshot = () => this.#state;

  /** Others editing row `id` of `area` (the caller left out). */
  editors(area: EventArea, id: number): readonly EventAccount[] {
    return this.#presence.get(presenceKey(area, id)) ?? EMPTY;
  }

  onChange(listener: ChangeListener) {
    this.#changes.add(listener);
    return () => void this.#changes.delete(listener);
  }

  /**
   * `listener` reads the account's grants again: after `event: access` (the owner changed them,
   * or a menu), and whenever open lists refetch (what a missed `access` would have said).
   */
  onAccessChange(listener: () => void) {
    this.#accessChanges.add(listener);
    return () => void this.#accessChanges.delete(listener);
  }

  /** `listener` refetches what is open: after `event: reset`, and on a timer in fallback. */
  onResync(listener: () => void) {
    this.#resyncs.add(listener);
    return () => void this.#resyncs.delete(listener);
  }

  /** Who edits a row, as a `PUT`/`DELETE presence` answered (before the stream tells). */
  setEditors(area: EventArea, id: number, editors: readonly EventAccount[]) {
    const others = editors.filter((e) => e.id !== this.#me);
    const key = presenceKey(area, id);
    const before = this.#presence.get(key) ?? EMPTY;
    if (
      before.length === others.length &&
      before.every((e, i) => e.id === others[i]?.id && e.name === others[i].name)
    ) {
      return;
    }
    const next = new Map(this.#presence);
    if (others.length === 0) next.delete(key);
    else next.set(key, others);
    this.#presence = next;
    this.#notify();
  }

  #notify() {
    for (const watcher of this.#watchers) watcher();
  }

  #setState(state: StreamState) {
    if (state === this.#state) return;
    const was = this.#state;
    this.#state = state;
    clearInterval(this.#fallbackTimer);
    this.#fallbackTimer = undefined;
    if (state === 'fallback') {
      this.#missed = true;
      this.#fallbackTimer = setInterval(() => this.#resync(), FALLBACK_REFETCH_MS);
      // What changed while the stream was failing: refetch now rather than in 30 s.
      if (was !== 'stopped') this.#resync();
    }
    this.#notify();
  }

  #onFocus = () => {
    if (this.#state !== 'fallback') return;
    const now = Date.now();
    if (now - this.#lastFocusResync < FOCUS_GAP_MS) return;
    this.#lastFocusResync = now;
    this.#resync();
  };

  #resync() {
    for (const listener of this.#resyncs) listener();
    this.#accessChanged();
  }

  #accessChanged() {
    for (const listener of this.#accessChanges) listener();
  }

  async #run(signal: AbortSignal) {
    let failures = 0;
    while (!signal.aborted) {
      const token = session.token();
      if (!token) {
        this.stop();
        return;
      }
      let opened = false;
      let outcome: Outcome;
      if (navigator.onLine === false) {
        outcome = 'failed';
        failures = Math.max(failures, FALLBACK_AFTER_FAILURES - 1);
      } else {
        outcome = await this.#connect(token, signal, () => {
          opened = true;
          failures = 0;
        });
      }
      if (signal.aborted) return;
      if (outcome === 'unauthorized') {
        // The session is over: the next call of the screen sends to sign-in.
        this.#setState('fallback');
        return;
      }
      let wait: number;
      if (outcome === 'unavailable') {
        failures = Math.max(failures + 1, FALLBACK_AFTER_FAILURES);
        wait = UNAVAILABLE_RETRY_MS;
      } else if (opened) {
        // It was up and ended (a server restart, a proxy's time-out): resume at once-ish.
        wait = this.#retryMs;
      } else {
        failures += 1;
        const base = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (failures - 1));
        wait = base / 2 + (Math.random() * base) / 2;
      }
      if (failures >= FALLBACK_AFTER_FAILURES) this.#setState('fallback');
      await sleep(wait, signal);
    }
  }

  /** One connection, until it ends; `onOpen` once it answered with a stream. */
  async #connect(token: string, signal: AbortSignal, onOpen: () => void): Promise<Outcome> {
    const connection = new AbortController();
    const stop = () => connection.abort();
    signal.addEventListener('abort', stop);
    let stall: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(stall);
      stall = setTimeout(stop, STALL_MS);
    };
    try {
      alive();
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: 'text/event-stream',
      };
      if (this.#lastId !== undefined) headers['Last-Event-ID'] = this.#lastId;
      const res = await fetch(`${API_BASE}${PATHS.events}`, {
        headers,
        cache: 'no-store',
        signal: connection.signal,
      });
      if (res.status === 401) return 'unauthorized';
      if (res.status === 404 || res.status === 405 || res.status === 501) return 'unavailable';
      if (res.status === 400 && this.#lastId !== undefined) {
        // A Last-Event-ID it does not take: start afresh, and refetch what may have been missed.
        this.#lastId = undefined;
        this.#missed = true;
        return 'failed';
      }
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok || !res.body || !type.startsWith('text/event-stream')) {
        await res.body?.cancel();
        return 'failed';
      }
      const resumed = this.#lastId !== undefined;
      onOpen();
      // A new stream tells every row's editors anew.
      this.#presence = new Map();
      this.#setState('live');
      if (this.#missed && !resumed) this.#resync();
      this.#missed = false;
      const parser = createParser({
        onId: (id) => void (this.#lastId = id),
        onRetry: (ms) => void (this.#retryMs = Math.min(Math.max(ms, 500), MAX_BACKOFF_MS)),
        onEvent: (message) => this.#dispatch(message.event, message.id, message.data),
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        alive();
        parser.feed(value);
      }
      return 'ended';
    } catch {
      return 'failed';
    } finally {
      clearTimeout(stall);
      signal.removeEventListener('abort', stop);
    }
  }

  #dispatch(kind: string | undefined, id: string | undefined, data: string) {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    if (kind === 'change') {
      if (id !== undefined) {
        if (this.#seen.has(id)) return;
        this.#seen.add(id);
        if (this.#seen.size > SEEN_MAX) {
          const oldest = this.#seen.values().next();
          if (!oldest.done) this.#seen.delete(oldest.value);
        }
      }
      const parsed = changeEventData.safeParse(json);
      if (!parsed.success) return;
      for (const listener of this.#changes) listener(parsed.data);
    } else if (kind === 'presence') {
      const parsed = presenceEventData.safeParse(json);
      if (parsed.success) this.setEditors(parsed.data.area, parsed.data.id, parsed.data.editors);
    } else if (kind === 'access') {
      this.#accessChanged();
    } else if (kind === 'reset') {
      this.#resync();
    }
  }
}

/** The page's one hub. */
export const events = new EventHub();

/** Runs the stream while the signed-in shell is shown and `enabled`. */
export function useEventStream(enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    events.start();
    return () => events.stop();
  }, [enabled]);
}

/** Calls `listener` with every change in `area` (all of them, the account's own included). */
export function useChangeEvents(
  area: EventArea | undefined,
  listener: (event: ChangeEventData) => void,
) {
  const heard = useEffectEvent(listener);
  useEffect(() => {
    if (!area) return;
    return events.onChange((event) => {
      if (event.area === area) heard(event);
    });
  }, [area]);
}

/** Calls `listener` when the account's grants may have changed (see `onAccessChange`). */
export function useAccessChanges(listener: () => void) {
  const heard = useEffectEvent(listener);
  useEffect(() => events.onAccessChange(() => heard()), []);
}

/** Calls `listener` when open lists should refetch (a reset, or the fallback's timer). */
export function useResync(enabled: boolean, listener: () => void) {
  const heard = useEffectEvent(listener);
  useEffect(() => {
    if (!enabled) return;
    return events.onResync(() => heard());
  }, [enabled]);
}

/** Everyone else's presence, `area:id` → editors; a new map whenever it changes. */
export function usePresenceMap(): ReadonlyMap<string, readonly EventAccount[]> {
  return useSyncExternalStore(events.subscribe, events.presenceSnapshot);
}

/** Who else is editing row `id` of `area` now. */
export function usePresence(area: EventArea, id: number): readonly EventAccount[] {
  const map = usePresenceMap();
  return map.get(presenceKey(area, id)) ?? EMPTY;
}

export function editorsIn(
  map: ReadonlyMap<string, readonly EventAccount[]>,
  area: EventArea,
  id: number,
): readonly EventAccount[] {
  return map.get(presenceKey(area, id)) ?? EMPTY;
}

/** The stream's state (`fallback`: lists refetch on a timer). */
export function useStreamState(): StreamState {
  return useSyncExternalStore(events.subscribe, events.stateSnapshot);
}

/** How often a held presence is renewed (it holds 30 s). */
export const PRESENCE_RENEW_MS = 20_000;

/**
 * "I am editing this row" while `target` is set: said at once and every 20 s, taken back when
 * it is unset or the component goes, and, should the tab close meanwhile, with a request that
 * outlives the page (keepalive). Best effort: a failure is not shown (the row expires anyway).
 */
export function useHoldPresence(target: { area: EventArea; id: number } | undefined) {
  const area = target?.area;
  const id = target?.id;
  useEffect(() => {
    if (area === undefined || id === undefined) return;
    const body = { area, id };
    let ended = false;
    const hold = () =>
      api.json('PUT', PATHS.presence, presenceAnswer, body).then(
        (answer) => {
          if (!ended) events.setEditors(area, id, answer.editors);
        },
        () => undefined,
      );
    void hold();
    const timer = setInterval(() => void hold(), PRESENCE_RENEW_MS);
    const leave = () => {
      const token = session.token();
      if (!token) return;
      void fetch(`${API_BASE}${PATHS.presence}`, {
        method: 'DELETE',
        keepalive: true,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          // As every change call sends (lib/api.ts); this one is never sent again.
          'Idempotency-Key': idempotencyKey(),
        },
        body: JSON.stringify(body),
      }).catch(() => undefined);
    };
    window.addEventListener('pagehide', leave);
    return () => {
      ended = true;
      clearInterval(timer);
      window.removeEventListener('pagehide', leave);
      if (session.token()) {
        void api.json('DELETE', PATHS.presence, presenceAnswer, body).then(
          (answer) => events.setEditors(area, id, answer.editors),
          () => undefined,
        );
      }
    };
  }, [area, id]);
}
