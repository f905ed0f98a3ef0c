import { vi, type Mock } from 'vitest';

/**
 * The browser's passkey prompt, as @simplewebauthn/browser runs it (jsdom has none): test/setup.ts
 * puts this in the library's place for every file (the files share one module graph), and each
 * test says what the prompt answers.
 */
export const webauthn: {
  startAuthentication: Mock;
  startRegistration: Mock;
  WebAuthnAbortService: { cancelCeremony: Mock };
} = {
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
};
