import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { server } from './server';
import { webauthn } from './webauthn';

vi.mock('@simplewebauthn/browser', () => webauthn);

// jsdom lacks what Mantine measures with.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// jsdom lays nothing out, so nothing scrolls into view: what waits for that (the dashboard's
// charts) stays unrendered unless a test says otherwise (trends.test.tsx).
class IntersectionObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
window.IntersectionObserver = IntersectionObserverStub as unknown as typeof IntersectionObserver;
Element.prototype.scrollIntoView = () => {};
// Mantine's autosizing Textarea listens to font loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}
window.HTMLElement.prototype.scrollTo = () => {};
window.scrollTo = () => {};

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  cleanup();
  // Toasts live in a store of their own: one test's must not reach the next.
  notifications.clean();
  server.resetHandlers();
  localStorage.clear();
  webauthn.startAuthentication.mockReset();
  webauthn.startRegistration.mockReset();
  webauthn.WebAuthnAbortService.cancelCeremony.mockReset();
});
afterAll(() => server.close());

// Lazy routes compile on first use under Vitest; give findBy* more than the default second.
configure({ asyncUtilTimeout: 10_000 });

// And compile them before a file's first test, not inside it: on a loaded machine the first
// render of a screen could spend the whole findBy* wait compiling its module graph (CI saw the
// posters list stay "Loading..."). Files share modules (isolate: false), so a worker pays once.
const screens = import.meta.glob('../src/features/*/*Page.tsx');
beforeAll(() => Promise.all(Object.values(screens).map((load) => load())), 120_000);
