/**
 * Sign-in that stands up to the internet (issue #24), as staff live it: an authenticator app set
 * up on the profile and then asked for at sign-in (a code computed here, as the phone would), a
 * recovery code in its place; a passkey added and then signing in on its own, offered in the email
 * field's autofill and by its button (Chromium's virtual authenticator, through the DevTools
 * protocol's WebAuthn domain); and a session ended from another device, whose next step is
 * refused. Each change of how the account signs in, made later in the day, first asks in place
 * for a proof (issue #31): a recovery code, the passkey, the password.
 */
import type { Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { MESSAGES, PATHS } from '@master-admin/contract';
import {
  baseUrl,
  expect,
  expectToast,
  newBackOfficeAccount,
  openSignedIn,
  proofPrompt,
  signOut,
  staleProof,
  submitSignIn,
  test,
  watchApi,
} from './fixtures.ts';

/** The code the authenticator app shows for `secret` one step from now (the step the set-up
 * spent is refused again: a code is accepted once). */
function nextCode(secret: string): string {
  return new TOTP({ secret: secret.replace(/\s/g, '') }).generate({
    timestamp: Date.now() + 30_000,
  });
}

async function expectSignedIn(page: Page) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
}

test('an authenticator app: set up on the profile, new recovery codes after a proof, asked for at sign-in, a recovery code in its place', async ({
  page,
  sql,
  consoleGuard,
}) => {
  const account = await newBackOfficeAccount(sql);
  const calls = watchApi(page);
  await openSignedIn(page, '/profile', { as: account, heading: 'Account' });

  await page
    .getByRole('region', { name: 'Security' })
    .getByRole('button', { name: 'Set up' })
    .click();
  const setUp = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await expect(setUp.getByRole('img', { name: /QR code/i })).toBeVisible();
  const secret = (await setUp.locator('code').first().innerText()).trim();
  expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
  await setUp
    .getByLabel('Code from the app')
    .fill(new TOTP({ secret: secret.replace(/\s/g, '') }).generate());
  await setUp.getByRole('button', { name: 'Turn on' }).click();

  const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
  // allInnerTexts does not wait: the codes are waited for first.
  const listed = saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(listed).toHaveCount(10);
  const first = await listed.allInnerTexts();
  await saved.getByRole('button', { name: 'I have saved them' }).click();
  await expect(saved).toBeHidden();

  // Later in the day, new recovery codes: the change asks, in place, for a proof; a recovery code
  // gives it, and the codes come.
  await staleProof(sql, account.email);
  consoleGuard.allowStatus(403, PATHS.recoveryCodes, 'asked for a proof, then sent again');
  await page.getByRole('button', { name: 'New recovery codes' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make new codes' }).click();
  const prompt = proofPrompt(page);
  await prompt.getByRole('button', { name: 'Use a recovery code' }).click();
  await prompt.getByLabel('Recovery code').fill(first[0]!);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(prompt).toBeHidden();
  await expect(listed).toHaveCount(10);
  const codes = await listed.allInnerTexts();
  expect(codes).not.toContain(first[1]);
  await saved.getByRole('button', { name: 'I have saved them' }).click();
  await expect(saved).toBeHidden();

  // The password alone no longer signs in: the card asks for the app's code.
  await calls.settled();
  await signOut(page);
  await submitSignIn(page, account.email, account.password);
  // The sixth digit sends the code: no button to press.
  await page.getByLabel('Authentication code').fill(nextCode(secret));
  await expectSignedIn(page);

  // A recovery code in place of the phone, once. Signing out cuts the dashboard's requests under
  // way, but one answered in the very moment of the cut still logs a 401: sign out of a settled
  // screen (as auth.spec does).
  await calls.settled();
  await signOut(page);
  await submitSignIn(page, account.email, account.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
});

test('a passkey: added on the profile, offered in the email field’s autofill and by its button; a stale session cannot add another, and proves with it before removing it', async ({
  page,
  sql,
  consoleGuard,
}) => {
  // WebAuthn needs a name, not an address: the page is opened on localhost, the relying party the
  // server was started for (WEBAUTHN_RP_ID's default).
  const origin = baseUrl().replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  // A browser without autofill for passkeys, once the test says so (the e2e project has no DOM
  // types: the one method is reached through globalThis).
  await page.addInitScript(() => {
    const credential = (globalThis as unknown as Record<string, Record<string, unknown>>)
      .PublicKeyCredential!;
    const available = credential.isConditionalMediationAvailable as () => Promise<boolean>;
    credential.isConditionalMediationAvailable = () =>
      (
        globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
      ).localStorage.getItem('e2e:no-autofill')
        ? Promise.resolve(false)
        : available.call(credential);
  });

  const account = await newBackOfficeAccount(sql);
  const lastSignIn = async () =>
    (
      await sql.one<{ sign_in_method: string }>(
        `select s.sign_in_method from sessions s join accounts a on a.id = s.account_id
         where a.email = ? order by s.created_at desc limit 1`,
        [account.email],
      )
    ).sign_in_method;
  const calls = watchApi(page);
  await page.goto(`${origin}/auth/sign-in`);
  // The email field asks the browser for this device's passkeys; there is none yet, and the offer
  // waits unseen.
  await expect(page.getByLabel('Email or phone number')).toHaveAttribute(
    'autocomplete',
    'username webauthn',
  );
  await calls.settled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await submitSignIn(page, account.email, account.password);
  await expectSignedIn(page);
  await page.goto(`${origin}/profile`);

  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('Work laptop');
  await add.getByRole('button', { name: 'Continue' }).click();
  await expectToast(page, 'Passkey added');
  await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText('Work laptop');

  // Signed out, the sign-in form offers the passkey in the email field's autofill. The virtual
  // authenticator answers that offer at once, as a person picking the passkey from the list.
  await calls.settled();
  await signOut(page);
  await expectSignedIn(page);
  expect(await lastSignIn()).toBe('passkey');

  // Where the browser has no such autofill, the button.
  await page.evaluate(() =>
    (
      globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
    ).localStorage.setItem('e2e:no-autofill', '1'),
  );
  await calls.settled();
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectSignedIn(page);
  expect(await lastSignIn()).toBe('passkey');

  // Later, as a stolen session would (its proof long past): adding another asks for a proof, and
  // without one the browser's authenticator is never asked for a new passkey.
  await staleProof(sql, account.email);
  consoleGuard.allowStatus(403, PATHS.passkeyRegisterOptions, 'asked for a proof, declined');
  await page.goto(`${origin}/profile`);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const another = page.getByRole('dialog', { name: 'Add a passkey' });
  await another.getByLabel('Name').fill('Not mine');
  await another.getByRole('button', { name: 'Continue' }).click();
  await proofPrompt(page).getByRole('button', { name: 'Cancel' }).click();
  await expectToast(page, MESSAGES.reauthCancelled);
  await another.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Discard changes?' })
    .getByRole('button', { name: 'Discard' })
    .click();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);

  // Removing it asks for a proof first: the passkey gives it.
  consoleGuard.allowStatus(403, PATHS.passkeys, 'asked for a proof, then sent again');
  const passkeys = page.getByRole('list', { name: 'Your passkeys' });
  await passkeys.getByRole('button', { name: 'Actions for Work laptop' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await page
    .getByRole('dialog', { name: 'Remove this passkey?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await proofPrompt(page).getByRole('button', { name: 'Use your passkey' }).click();
  await expectToast(page, 'Passkey removed');
  await expect(passkeys).toBeHidden();
});

test('a session ended from another device, after a proof by password, is signed out at its next step', async ({
  page,
  browser,
  sql,
  consoleGuard,
}) => {
  const account = await newBackOfficeAccount(sql);
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await openSignedIn(otherPage, '/category', { as: account, heading: 'Categories' });
    await openSignedIn(page, '/profile', { as: account, heading: 'Account' });

    const sessions = page.getByRole('list', { name: 'Your sessions' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await expect(sessions.getByText('This device')).toHaveCount(1);
    // A token left on a shared computer could not do this: ending another session asks for the
    // password first, in place.
    await staleProof(sql, account.email);
    consoleGuard.allowStatus(403, PATHS.mySessions, 'asked for a proof, then sent again');
    await sessions
      .getByRole('listitem')
      .filter({ hasNot: page.getByText('This device') })
      .getByRole('button', { name: /^End/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: /^End/ }).click();
    const prompt = proofPrompt(page);
    await prompt.getByLabel('Password', { exact: true }).fill(account.password);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Session ended');
    await expect(sessions.getByRole('listitem')).toHaveCount(1);

    // The other device's next call is refused: it lands on the sign-in screen.
    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/auth\/sign-in/);
  } finally {
    await other.close();
  }
});
