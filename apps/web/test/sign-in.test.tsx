import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CHALLENGE_MINUTES, MESSAGES, STORAGE_KEYS } from '@master-admin/contract';
import { renderApp } from './render';
import { webauthn } from './webauthn';
import { HttpResponse, errorJson, http, api, server } from './server';

const emptyDashboard = () =>
  http.get(api('/dashboard/getCount'), () =>
    HttpResponse.json({ totalUser: 0, totalCategory: 0, totalPoster: 0, downloadPoster: 0 }),
  );
const noApps = () => http.get(api('/master-app/options'), () => HttpResponse.json({ result: [] }));

async function signIn(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email or phone number'), email);
  await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('shows the server’s message on a wrong password and stays signed out', async () => {
    server.use(
      http.post(api('/auth/admin/login'), () =>
        errorJson(401, 'Unauthorized', 'Invalid email or password'),
      ),
    );
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('says "Invalid credentials or somthing went wrong!" when the server cannot be reached', async () => {
    server.use(http.post(api('/auth/admin/login'), () => HttpResponse.error()));
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid credentials or somthing went wrong!',
    );
  });

  it('says "Invalid response from server" when the answer has no token', async () => {
    server.use(http.post(api('/auth/admin/login'), () => HttpResponse.json({ loginId: 'x' })));
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid response from server');
  });

  it('checks the fields before sending', async () => {
    renderApp('/auth/sign-in');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
  });

  it('stores the token and login id, sends JSON, and goes back where the user was going', async () => {
    let sent: unknown;
    server.use(
      http.post(api('/auth/admin/login'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ token: 'new-token', loginId: 'admin@example.com' });
      }),
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    const { router } = renderApp('/masterApp?page=1&q=fest');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    await signIn('admin@example.com', 'secret123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/masterApp'));
    expect(router.state.location.search).toBe('?page=1&q=fest');
    expect(sent).toEqual({ email: 'admin@example.com', password: 'secret123' });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new-token');
    expect(localStorage.getItem(STORAGE_KEYS.loginId)).toBe('admin@example.com');
  });

  it('sends a user who already has a token to the dashboard', async () => {
    server.use(emptyDashboard(), noApps());
    const { router } = renderApp('/auth/sign-in', { signedInAs: 'admin@example.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });
});

/** A password sign-in whose account has a second factor: the server answers a challenge. */
const challenged = (methods: string[]) =>
  http.post(api('/auth/admin/login'), () =>
    HttpResponse.json({ challenge: 'challenge-1', methods }),
  );

/** The second step's call: each body it receives, and what it answers. */
function verifyCall(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(api('/auth/admin/login/verify'), async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

const signedIn = () => HttpResponse.json({ token: 'new-token', loginId: 'admin@example.com' });

describe('sign-in’s second step', () => {
  it('asks for the app’s code and signs in once six digits are typed', async () => {
    server.use(challenged(['totp', 'recovery']), emptyDashboard(), noApps());
    const bodies = verifyCall(signedIn);
    const { router } = renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    await userEvent.type(code, '123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(bodies).toEqual([{ challenge: 'challenge-1', method: 'totp', code: '123456' }]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new-token');
  });

  it('says a wrong code is not valid, on the field, and lets the person type another', async () => {
    server.use(challenged(['totp']));
    const bodies = verifyCall(() => errorJson(401, 'Unauthorized', MESSAGES.invalidCode));
    const { router } = renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    await userEvent.type(code, '000000');
    await waitFor(() => expect(code).toHaveAccessibleDescription(MESSAGES.invalidCode));
    expect(code).toHaveValue('');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/auth/sign-in');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    // Only the app's code is offered: no recovery code, no passkey.
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use your passkey' })).toBeNull();
  });

  it('takes a recovery code instead', async () => {
    server.use(challenged(['totp', 'recovery']), emptyDashboard(), noApps());
    const bodies = verifyCall(signedIn);
    const { router } = renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const code = screen.getByRole('textbox', { name: 'Recovery code' });
    expect(code).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(code).toHaveAccessibleDescription('Enter one of your recovery codes');
    await userEvent.type(code, 'k7m2-q9xr');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(bodies).toEqual([{ challenge: 'challenge-1', method: 'recovery', code: 'k7m2-q9xr' }]);
  });

  it('goes back to the password, saying why, when the sign-in has expired', async () => {
    server.use(challenged(['totp']));
    verifyCall(() => errorJson(401, 'Unauthorized', MESSAGES.challengeExpired));
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Authentication code' }),
      '123456',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.challengeExpired);
    expect(screen.getByLabelText('Email or phone number')).toHaveValue('admin@example.com');
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveValue('');
  });

  it('says how long to wait when throttled, and holds Verify until then', async () => {
    server.use(challenged(['totp']));
    verifyCall(() =>
      HttpResponse.json(
        { statusCode: 429, error: 'Too Many Requests', message: MESSAGES.tooManyAttempts },
        { status: 429, headers: { 'Retry-After': '120' } },
      ),
    );
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Authentication code' }),
      '123456',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many failed sign-in attempts, please try again later. Try again in 2 minutes.',
    );
    expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
  });

  it('Back returns to the password', async () => {
    server.use(challenged(['totp']));
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    await screen.findByRole('textbox', { name: 'Authentication code' });
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Authentication code' })).toBeNull();
  });
});

/** The passkey sign-in calls, answered as the server does (a numbered challenge each time), and
 * what was sent to them. */
const passkeyCalls = (verify: () => Response = signedIn) => {
  const sent = { options: [] as unknown[], verify: [] as unknown[] };
  server.use(
    http.post(api('/auth/passkey/login/options'), async ({ request }) => {
      sent.options.push(await request.json());
      return HttpResponse.json({
        challenge: `challenge-${sent.options.length}`,
        rpId: 'localhost',
      });
    }),
    http.post(api('/auth/passkey/login/verify'), async ({ request }) => {
      sent.verify.push(await request.json());
      return verify();
    }),
  );
  return sent;
};
const assertion = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  clientExtensionResults: {},
};

describe('passkey sign-in', () => {
  beforeEach(() => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('signs in with a passkey alone, from the first step', async () => {
    server.use(emptyDashboard(), noApps());
    const sent = passkeyCalls();
    webauthn.startAuthentication.mockResolvedValue(assertion);
    const { router } = renderApp('/auth/sign-in');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent.options).toEqual([{}]);
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'challenge-1', rpId: 'localhost' },
    });
    expect(sent.verify).toEqual([{ response: assertion }]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new-token');
  });

  it('offers the account’s passkey as the second step, for the email typed', async () => {
    server.use(challenged(['passkey', 'totp']), emptyDashboard(), noApps());
    const sent = passkeyCalls();
    webauthn.startAuthentication.mockResolvedValue(assertion);
    const { router } = renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'secret123');
    await userEvent.click(await screen.findByRole('button', { name: 'Use your passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent.options).toEqual([{ email: 'admin@example.com' }]);
  });

  it('says so when the browser’s prompt is closed, and stays signed out', async () => {
    const sent = passkeyCalls();
    webauthn.startAuthentication.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    renderApp('/auth/sign-in');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The passkey prompt was closed or timed out. Nothing was changed.',
    );
    expect(sent.verify).toEqual([]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
  });

  it('is not offered by a browser without passkeys', async () => {
    vi.unstubAllGlobals();
    server.use(challenged(['passkey', 'totp']));
    renderApp('/auth/sign-in');
    const form = (await screen.findByRole('button', { name: 'Sign in' })).closest('form')!;
    expect(within(form).queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
    await signIn('admin@example.com', 'secret123');
    await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(screen.queryByRole('button', { name: 'Use your passkey' })).toBeNull();
  });
});

describe('passkeys in the email field’s autofill', () => {
  // A browser that offers passkeys in autofill (WebAuthn's conditional mediation). Its pending
  // offer ends, as the library's abort would end it, when cancelCeremony is called.
  beforeEach(() => {
    vi.stubGlobal(
      'PublicKeyCredential',
      Object.assign(function PublicKeyCredential() {}, {
        isConditionalMediationAvailable: () => Promise.resolve(true),
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const abortError = () =>
    Object.assign(new Error('Manually cancelling existing WebAuthn API call'), {
      name: 'AbortError',
    });
  /** The browser's autofill offer: waiting until the person picks a passkey or it is cancelled. */
  const waitingOffer = () => {
    let pick: (value: unknown) => void = () => {};
    webauthn.startAuthentication.mockImplementationOnce(
      () =>
        new Promise((resolve, reject) => {
          pick = resolve;
          webauthn.WebAuthnAbortService.cancelCeremony.mockImplementationOnce(() =>
            reject(abortError()),
          );
        }),
    );
    return { pick: (assertion: unknown) => pick(assertion) };
  };
  it('picking a passkey from the autofill signs in', async () => {
    server.use(emptyDashboard(), noApps());
    const sent = passkeyCalls();
    const offer = waitingOffer();
    const { router } = renderApp('/auth/sign-in');
    expect(await screen.findByLabelText('Email or phone number')).toHaveAttribute(
      'autocomplete',
      'username webauthn',
    );
    await waitFor(() =>
      expect(webauthn.startAuthentication).toHaveBeenCalledWith({
        optionsJSON: { challenge: 'challenge-1', rpId: 'localhost' },
        useBrowserAutofill: true,
      }),
    );
    offer.pick(assertion);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent.verify).toEqual([{ response: assertion }]);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new-token');
  });

  it('a password sign-in ends the offer', async () => {
    server.use(
      http.post(api('/auth/admin/login'), () => signedIn()),
      emptyDashboard(),
      noApps(),
    );
    const sent = passkeyCalls();
    waitingOffer();
    const { router } = renderApp('/auth/sign-in');
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
    await signIn('admin@example.com', 'secret123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(webauthn.WebAuthnAbortService.cancelCeremony).toHaveBeenCalled();
    expect(sent.verify).toEqual([]);
  });

  it('a wrong password offers the passkeys again', async () => {
    server.use(
      http.post(api('/auth/admin/login'), () =>
        errorJson(401, 'Unauthorized', 'Invalid email or password'),
      ),
    );
    const sent = passkeyCalls();
    waitingOffer();
    waitingOffer();
    renderApp('/auth/sign-in');
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
    await signIn('admin@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(2));
    // A fresh challenge: the first was for the offer the password ended.
    expect(webauthn.startAuthentication).toHaveBeenLastCalledWith({
      optionsJSON: { challenge: 'challenge-2', rpId: 'localhost' },
      useBrowserAutofill: true,
    });
    expect(sent.options).toHaveLength(2);
  });

  it('the passkey button’s prompt takes the offer’s place', async () => {
    server.use(emptyDashboard(), noApps());
    const sent = passkeyCalls();
    waitingOffer();
    webauthn.startAuthentication.mockResolvedValueOnce(assertion);
    const { router } = renderApp('/auth/sign-in');
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(webauthn.startAuthentication).toHaveBeenLastCalledWith({
      optionsJSON: { challenge: 'challenge-2', rpId: 'localhost' },
    });
    expect(sent.verify).toEqual([{ response: assertion }]);
  });

  it('a passkey the server refuses: its message, still signed out', async () => {
    const sent = passkeyCalls(() => errorJson(401, 'Unauthorized', MESSAGES.passkeyRefused));
    const offer = waitingOffer();
    renderApp('/auth/sign-in');
    await waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
    offer.pick(assertion);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.passkeyRefused);
    expect(sent.verify).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('an offer the browser refuses unseen (no passkey here, another host) says nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const sent = passkeyCalls();
      webauthn.startAuthentication.mockRejectedValueOnce(
        Object.assign(new Error('The operation either timed out or was not allowed.'), {
          name: 'NotAllowedError',
        }),
      );
      renderApp('/auth/sign-in');
      await vi.waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
      // Nor is it offered again when its challenge would have run out.
      await vi.advanceTimersByTimeAsync(CHALLENGE_MINUTES * 60_000);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1);
      expect(sent.options).toHaveLength(1);
      expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a fresh offer takes the place of one whose challenge is about to run out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const sent = passkeyCalls();
      waitingOffer();
      waitingOffer();
      renderApp('/auth/sign-in');
      await vi.waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1));
      await vi.advanceTimersByTimeAsync(CHALLENGE_MINUTES * 60_000 - 30_000);
      await vi.waitFor(() => expect(webauthn.startAuthentication).toHaveBeenCalledTimes(2));
      expect(webauthn.WebAuthnAbortService.cancelCeremony).toHaveBeenCalledTimes(1);
      expect(sent.options).toHaveLength(2);
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
