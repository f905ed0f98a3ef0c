import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, STORAGE_KEYS, type SessionRow } from '@master-admin/contract';
import { renderApp } from './render';
import { SESSIONS_SHOWN } from '../src/components/SessionList';
import { webauthn } from './webauthn';
import { HttpResponse, errorJson, http, api, myFactors, server, staffGrants } from './server';

const me = () =>
  http.get(api('/account/admin-detail'), () =>
    HttpResponse.json({
      id: 4,
      phoneNumber: '+919876500004',
      email: 'asha@example.com',
      status: 'ACTIVE',
      createdAt: '2026-01-02T03:04:05.000Z',
    }),
  );

const RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `code-${i}abc-def${i}`);

/** The authenticator app's setup calls; `confirmed` flips once a code confirms it. */
function totpSetup() {
  const state = { confirmed: false, codes: [] as unknown[] };
  server.use(
    http.post(api('/account/me/totp'), () =>
      HttpResponse.json({
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl:
          'otpauth://totp/Master%20Admin:asha?secret=JBSWY3DPEHPK3PXP&issuer=Master%20Admin',
      }),
    ),
    http.post(api('/account/me/totp/confirm'), async ({ request }) => {
      state.codes.push(Object.fromEntries(new URLSearchParams(await request.text())));
      state.confirmed = true;
      return HttpResponse.json({ message: MESSAGES.totpEnabled, recoveryCodes: RECOVERY_CODES });
    }),
  );
  return state;
}

async function enrolTotp() {
  await userEvent.click(await screen.findByRole('button', { name: 'Set up' }));
  const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
  expect(
    await within(dialog).findByRole('img', { name: 'QR code to scan with your authenticator app' }),
  ).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
  expect(within(dialog).getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
  await userEvent.type(
    within(dialog).getByRole('textbox', { name: 'Code from the app' }),
    '654321',
  );
  await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
}

describe('the enrolment gate', () => {
  it('keeps every other screen closed until a second factor is added', async () => {
    const setup = totpSetup();
    let faqCalls = 0;
    server.use(
      me(),
      staffGrants({ faqs: ['VIEW'] }),
      myFactors(() =>
        setup.confirmed ? { totp: true, recoveryCodesLeft: 10 } : { enrolmentRequired: true },
      ),
      http.get(api('/faqs/list'), () => {
        faqCalls += 1;
        return HttpResponse.json({ result: [], total: 0, nextCursor: null });
      }),
    );
    const { router } = renderApp('/faqs', { signedInAs: 'asha@example.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(
      await screen.findByText(
        'Your organisation requires a second factor. Set up an authenticator app or a passkey to continue.',
      ),
    ).toBeInTheDocument();
    // Every other link carries a lock; following one comes back here.
    const nav = screen.getByRole('navigation', { name: 'Areas' });
    await userEvent.click(
      within(nav).getByRole('link', { name: 'FAQs Set up a second factor first' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(faqCalls).toBe(0);
    // The password waits (the server refuses its change until then); sign-out does not.
    expect(screen.queryByRole('button', { name: 'Change password' })).toBeNull();
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeEnabled();

    await enrolTotp();
    await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('Your account is protected')).toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('link', { name: 'FAQs' }));
    expect(await screen.findByRole('heading', { name: 'FAQs' })).toBeInTheDocument();
    expect(faqCalls).toBe(1);
  });
});

describe('the authenticator app', () => {
  it('is set up with the QR code and a code, and its recovery codes are shown once', async () => {
    const setup = totpSetup();
    server.use(
      me(),
      myFactors(() => (setup.confirmed ? { totp: true, recoveryCodesLeft: 10 } : {})),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    expect(await screen.findByText('Off')).toBeInTheDocument();
    await enrolTotp();
    expect(setup.codes).toEqual([{ code: '654321' }]);

    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const codes = within(saved).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(RECOVERY_CODES);
    expect(within(saved).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(within(saved).getByRole('button', { name: 'Download .txt' })).toBeInTheDocument();
    // Escape does not lose them: only "I have saved them" closes.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Save your recovery codes' })).toBeInTheDocument();
    await userEvent.click(within(saved).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(RECOVERY_CODES[0]!)).toBeNull();
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(screen.getByText('10 of 10 recovery codes left.')).toBeInTheDocument();
  });

  it('says a wrong code once, on the field, and nothing of it after the right one', async () => {
    const setup = totpSetup();
    let tries = 0;
    server.use(
      me(),
      myFactors(() => (setup.confirmed ? { totp: true, recoveryCodesLeft: 10 } : {})),
      // The first code is wrong; the server names the field (409 on code).
      http.post(api('/account/me/totp/confirm'), () => {
        tries += 1;
        return tries === 1 ? errorJson(409, 'Conflict', MESSAGES.invalidCode, 'code') : undefined;
      }),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    expect(await screen.findByText('Off')).toBeInTheDocument();
    await enrolTotp();
    const dialog = screen.getByRole('dialog', { name: 'Set up an authenticator app' });
    const code = within(dialog).getByRole('textbox', { name: 'Code from the app' });
    await waitFor(() => expect(code).toHaveAccessibleDescription(/This code is not valid/));
    // One message for one failure: the field's, no toast beside it.
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getAllByText(MESSAGES.invalidCode)).toHaveLength(1);

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(MESSAGES.totpEnabled)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.invalidCode)).toBeNull();
  });

  it('is removed with a current code; a wrong one is marked on the field and signs nobody out', async () => {
    const sent: unknown[] = [];
    server.use(
      me(),
      myFactors({ totp: true, recoveryCodesLeft: 2 }),
      http.delete(api('/account/me/totp'), async ({ request }) => {
        sent.push(await request.json());
        return sent.length === 1
          ? errorJson(401, 'Unauthorized', MESSAGES.invalidCode)
          : HttpResponse.json({ message: MESSAGES.totpDisabled });
      }),
    );
    const { router } = renderApp('/profile', { signedInAs: 'asha@example.com' });
    expect(
      await screen.findByText('2 of 10 recovery codes left. Make new ones before they run out.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the authenticator app' });
    const code = within(dialog).getByRole('textbox', {
      name: 'Code from the app, or a recovery code',
    });
    await userEvent.type(code, '111111');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(/This code is not valid/));
    expect(router.state.location.pathname).toBe('/profile');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('test-token');
    await userEvent.clear(code);
    await userEvent.type(code, 'k7m2-q9xr');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(MESSAGES.totpDisabled)).toBeInTheDocument();
    expect(sent).toEqual([{ code: '111111' }, { code: 'k7m2-q9xr' }]);
  });
});

describe('new recovery codes', () => {
  it('are made after a confirm and shown once', async () => {
    let made = 0;
    server.use(
      me(),
      myFactors(() => ({ totp: true, recoveryCodesLeft: made > 0 ? 10 : 1 })),
      http.post(api('/account/me/recovery-codes'), () => {
        made += 1;
        return HttpResponse.json({
          message: MESSAGES.recoveryCodesRenewed,
          recoveryCodes: RECOVERY_CODES,
        });
      }),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    const confirm = await screen.findByRole('dialog', { name: 'Make new recovery codes?' });
    expect(made).toBe(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Make new codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const list = within(dialog).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(RECOVERY_CODES);
    expect(made).toBe(1);
    expect(await screen.findByText('10 of 10 recovery codes left.')).toBeInTheDocument();
  });
});

describe('passkeys', () => {
  beforeEach(() => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('are listed, added, renamed and removed', async () => {
    let passkeys = [
      {
        id: 1,
        name: 'Work laptop',
        createdAt: '2026-10-01T09:00:00.000Z',
        lastUsedAt: null as string | null,
      },
    ];
    const sent: Record<string, unknown[]> = { verify: [], rename: [], remove: [] };
    const credential = {
      id: 'cred-2',
      rawId: 'cred-2',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'AA' },
      clientExtensionResults: {},
    };
    webauthn.startRegistration.mockResolvedValue(credential);
    server.use(
      me(),
      myFactors(() => ({ passkeys: passkeys.length })),
      http.get(api('/account/me/passkeys'), () => HttpResponse.json({ result: passkeys })),
      http.post(api('/auth/passkey/register/options'), () =>
        HttpResponse.json({ challenge: 'reg-challenge', rp: { name: 'Master Admin' } }),
      ),
      http.post(api('/auth/passkey/register/verify'), async ({ request }) => {
        const body = (await request.json()) as { name: string };
        sent.verify!.push(body);
        const added = { id: 2, name: body.name, createdAt: '2026-11-20T10:00:00.000Z' };
        passkeys = [...passkeys, { ...added, lastUsedAt: null }];
        return HttpResponse.json({ message: MESSAGES.passkeyAdded, result: added });
      }),
      http.patch(api('/account/me/passkeys/:id'), async ({ request, params }) => {
        const name = new URLSearchParams(await request.text()).get('name')!;
        sent.rename!.push({ id: params.id, name });
        passkeys = passkeys.map((p) => (String(p.id) === params.id ? { ...p, name } : p));
        return HttpResponse.json({ message: MESSAGES.passkeyRenamed });
      }),
      http.delete(api('/account/me/passkeys/:id'), ({ params }) => {
        sent.remove!.push(params.id);
        passkeys = passkeys.filter((p) => String(p.id) !== params.id);
        return HttpResponse.json({ message: MESSAGES.passkeyRemoved });
      }),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('Work laptop')).toBeInTheDocument();
    expect(within(list).getByText(/Added 1 Oct 2026 · never used/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'My phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(MESSAGES.passkeyAdded)).toBeInTheDocument();
    expect(webauthn.startRegistration).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'reg-challenge', rp: { name: 'Master Admin' } },
    });
    expect(sent.verify).toEqual([{ name: 'My phone', response: credential }]);
    expect(await within(list).findByText('My phone')).toBeInTheDocument();

    await userEvent.click(within(list).getByRole('button', { name: 'Actions for Work laptop' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    dialog = await screen.findByRole('dialog', { name: 'Rename the passkey' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Office laptop');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('Office laptop')).toBeInTheDocument();
    expect(sent.rename).toEqual([{ id: '1', name: 'Office laptop' }]);

    await userEvent.click(within(list).getByRole('button', { name: 'Actions for My phone' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    expect(sent.remove).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(list).queryByText('My phone')).toBeNull());
    expect(sent.remove).toEqual(['2']);
  });

  it('explain why none can be added in a browser without them', async () => {
    vi.unstubAllGlobals();
    server.use(me());
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    expect(await screen.findByText(/This browser cannot make or use passkeys/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
  });
});

const session = (id: number, overrides: Partial<SessionRow> = {}): SessionRow => ({
  id,
  device: 'Firefox 133 on Windows',
  ip: '203.0.113.7',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-20T09:30:00.000Z',
  current: false,
  method: 'password',
  ...overrides,
});

describe('sessions', () => {
  it('lists where the account is signed in, and ends one or all the others', async () => {
    let sessions = [
      session(1, { device: 'Chrome 142 on macOS', current: true, method: 'passkey' }),
      session(2),
      session(3, { device: 'Safari on iPhone', ip: '198.51.100.2', method: 'totp' }),
    ];
    const ended: string[] = [];
    server.use(
      me(),
      http.get(api('/account/me/sessions'), () => HttpResponse.json({ result: sessions })),
      http.delete(api('/account/me/sessions/:id'), ({ params }) => {
        ended.push(String(params.id));
        sessions = sessions.filter((s) => String(s.id) !== params.id);
        return HttpResponse.json({ message: MESSAGES.sessionEnded });
      }),
      http.delete(api('/account/me/sessions'), () => {
        ended.push('others');
        sessions = sessions.filter((s) => s.current);
        return HttpResponse.json({ message: MESSAGES.otherSessionsEnded });
      }),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('203.0.113.7 · Passkey')).toBeInTheDocument();
    expect(
      within(rows[2]!).getByText('198.51.100.2 · Password and authenticator app'),
    ).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('This device')).toBeNull();

    await userEvent.click(
      within(rows[1]!).getByRole('button', { name: 'End the session on Firefox 133 on Windows' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'End this session?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End session' }));
    expect(await screen.findByText(MESSAGES.sessionEnded)).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));

    await userEvent.click(screen.getByRole('button', { name: 'End all other sessions' }));
    const all = await screen.findByRole('dialog', { name: 'End every other session?' });
    expect(all).toHaveTextContent('The other session is signed out at once.');
    await userEvent.click(within(all).getByRole('button', { name: 'End other sessions' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(ended).toEqual(['2', 'others']);
    expect(screen.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();
  });

  it('shows the newest few of many sessions, this device’s among them, and all on demand', async () => {
    // About forty sign-ins, newest first as the server lists them; this device's is an old one.
    const sessions = Array.from({ length: 40 }, (_, i) =>
      session(i + 1, { device: `Browser ${i + 1}`, current: i === 30 }),
    );
    server.use(
      me(),
      http.get(api('/account/me/sessions'), () => HttpResponse.json({ result: sessions })),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    const shown = () =>
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent ?? '');
    expect(shown()).toHaveLength(SESSIONS_SHOWN + 1);
    expect(shown()[0]).toContain('Browser 1');
    expect(shown().at(-1)).toContain('This device');
    await userEvent.click(screen.getByRole('button', { name: 'Show all 40 sessions' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(40);
    await userEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(SESSIONS_SHOWN + 1);
  });

  it('ending this device’s own session signs out', async () => {
    let signedOut = false;
    server.use(
      me(),
      http.get(api('/account/me/sessions'), () =>
        HttpResponse.json({ result: [session(1, { current: true })] }),
      ),
      http.post(api('/auth/admin/logout'), () => {
        signedOut = true;
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    const { router } = renderApp('/profile', { signedInAs: 'asha@example.com' });
    const list = await screen.findByRole('list', { name: 'Your sessions' });
    await userEvent.click(within(list).getByRole('button', { name: 'End this device’s session' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sign out of this device?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    expect(signedOut).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

/** The server's 403 for a change whose session proved itself too long ago. */
const proofAsked = () =>
  HttpResponse.json(
    { statusCode: 403, error: 'Forbidden', message: MESSAGES.reauthRequired, reauth: true },
    { status: 403 },
  );

describe('confirming it’s you before a change of how the account signs in', () => {
  /**
   * Ending every other session, refused until a proof was given: the calls it made, and the
   * proofs sent, in order.
   */
  function proofRequired(prove: (body: Record<string, unknown>) => Response | undefined) {
    const calls: string[] = [];
    const proofs: unknown[] = [];
    let proved = false;
    server.use(
      me(),
      http.get(api('/account/me/sessions'), () =>
        HttpResponse.json({
          result: [
            {
              id: 1,
              device: 'Chrome on Linux',
              ip: '10.0.0.1',
              createdAt: '2026-11-01T00:00:00.000Z',
              lastSeenAt: null,
              current: true,
              method: 'password',
            },
            {
              id: 2,
              device: 'Safari on iOS',
              ip: '10.0.0.2',
              createdAt: '2026-11-01T00:00:00.000Z',
              lastSeenAt: null,
              current: false,
              method: 'password',
            },
          ] satisfies SessionRow[],
        }),
      ),
      http.delete(api('/account/me/sessions'), () => {
        calls.push(proved ? 'ended' : 'refused');
        return proved
          ? HttpResponse.json({
              message: MESSAGES.otherSessionsEnded,
              result: { ids: [2], count: 1 },
            })
          : proofAsked();
      }),
      http.post(api('/auth/reauth'), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        proofs.push(body);
        const refused = prove(body);
        if (refused) return refused;
        proved = true;
        return HttpResponse.json({
          message: MESSAGES.reauthDone,
          until: '2026-11-28T12:05:00.000Z',
        });
      }),
    );
    return { calls, proofs };
  }

  async function endOthers() {
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'End all other sessions' }));
    const confirm = await screen.findByRole('dialog', { name: /every other session/i });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End other sessions' }));
    return screen.findByRole('dialog', { name: 'Confirm it’s you' });
  }

  it('asks in place for the password, marks a wrong one, then makes the change', async () => {
    const { calls, proofs } = proofRequired((body) =>
      body.password === 'right-password'
        ? undefined
        : errorJson(409, 'Conflict', MESSAGES.wrongPassword, 'password'),
    );
    const prompt = await endOthers();
    const password = within(prompt).getByLabelText('Password');
    await userEvent.type(password, 'wrong-password');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(MESSAGES.wrongPassword));
    // Still signed in: a refused proof ends nothing.
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('test-token');
    await userEvent.clear(password);
    await userEvent.type(password, 'right-password');
    await userEvent.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.otherSessionsEnded)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Confirm it’s you' })).toBeNull(),
    );
    expect(calls).toEqual(['refused', 'ended']);
    expect(proofs).toEqual([{ password: 'wrong-password' }, { password: 'right-password' }]);
  });

  it('takes a code from the app, or a recovery code, when the account has them', async () => {
    server.use(myFactors({ totp: true, recoveryCodesLeft: 4 }));
    const { calls, proofs } = proofRequired(() => undefined);
    const prompt = await endOthers();
    await userEvent.click(within(prompt).getByRole('button', { name: 'Use a recovery code' }));
    await userEvent.click(
      within(prompt).getByRole('button', { name: 'Use the authenticator app' }),
    );
    // Complete at its sixth digit.
    await userEvent.type(
      within(prompt).getByRole('textbox', { name: 'Authentication code' }),
      '123456',
    );
    expect(await screen.findByText(MESSAGES.otherSessionsEnded)).toBeInTheDocument();
    expect(proofs).toEqual([{ method: 'totp', code: '123456' }]);
    expect(calls).toEqual(['refused', 'ended']);
  });

  it('takes a passkey when the account has one and the browser can use it', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    server.use(
      myFactors({ passkeys: 1 }),
      http.post(api('/auth/reauth/passkey/options'), () =>
        HttpResponse.json({
          challenge: 'reauth-challenge',
          allowCredentials: [{ id: 'cred-1', type: 'public-key' }],
        }),
      ),
    );
    const assertion = {
      id: 'cred-1',
      rawId: 'cred-1',
      type: 'public-key',
      response: { clientDataJSON: 'e30' },
    };
    webauthn.startAuthentication.mockResolvedValue(assertion);
    const { calls, proofs } = proofRequired(() => undefined);
    const prompt = await endOthers();
    await userEvent.click(within(prompt).getByRole('button', { name: 'Use your passkey' }));
    expect(await screen.findByText(MESSAGES.otherSessionsEnded)).toBeInTheDocument();
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: {
        challenge: 'reauth-challenge',
        allowCredentials: [{ id: 'cred-1', type: 'public-key' }],
      },
    });
    expect(proofs).toEqual([{ response: assertion }]);
    expect(calls).toEqual(['refused', 'ended']);
    vi.unstubAllGlobals();
  });

  it('closed, changes nothing and says so', async () => {
    const { calls, proofs } = proofRequired(() => undefined);
    const prompt = await endOthers();
    await userEvent.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(MESSAGES.reauthCancelled)).toBeInTheDocument();
    expect(calls).toEqual(['refused']);
    expect(proofs).toEqual([]);
    // Not taken for a grant taken away: the screen stays.
    expect(screen.queryByText(MESSAGES.accessDenied)).toBeNull();
  });
});

describe('a new password', () => {
  it('shows how guessable it is as it is typed, and the server’s reason on the field', async () => {
    server.use(
      me(),
      http.post(api('/auth/admin/pass-reset'), () =>
        HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            message: `newPassword: ${MESSAGES.weakPassword}`,
            details: [{ path: 'newPassword', message: MESSAGES.weakPassword }],
          },
          { status: 400 },
        ),
      ),
    );
    renderApp('/profile', { signedInAs: 'asha@example.com' });
    const next = await screen.findByLabelText('New password', { selector: 'input' });
    expect(next).toHaveAccessibleDescription('8 to 128 characters, not easy to guess');
    await userEvent.type(next, 'password1');
    await waitFor(() =>
      expect(next).toHaveAccessibleDescription(
        /Too easy to guess\. This is a commonly used password\./,
      ),
    );
    await userEvent.clear(next);
    await userEvent.type(next, 'asha12345');
    await waitFor(() =>
      expect(next).toHaveAccessibleDescription(
        /Must not be built from the account’s name, email or phone/,
      ),
    );
    await userEvent.clear(next);
    await userEvent.type(next, 'kettle-violet-harbour-42');
    await waitFor(() => expect(next).toHaveAccessibleDescription(/Strong enough\./));

    await userEvent.type(
      screen.getByLabelText('Current password', { selector: 'input' }),
      'old-one',
    );
    await userEvent.type(
      screen.getByLabelText('Repeat the new password', { selector: 'input' }),
      'kettle-violet-harbour-42',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(next).toHaveAttribute('aria-invalid', 'true'));
    expect(next).toHaveAccessibleDescription(new RegExp(MESSAGES.weakPassword));
  });
});
