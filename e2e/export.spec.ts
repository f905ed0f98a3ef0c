/**
 * CSV export in Chromium: "Export CSV" under a list downloads the rows of its current search, as
 * the server writes them (BOM, header, RFC 4180 quoting, a formula neutralised).
 */
import fs from 'node:fs';
import { adminApi, expect, listRange, openSignedIn, test, unique } from './fixtures.ts';

test('Export CSV downloads the searched rows, a formula neutralised', async ({ page, request }) => {
  const api = await adminApi(request);
  const tag = unique('E2E export');
  const question = `=HYPERLINK("http://x","y") ${tag}`;
  await api('post', '/faqs', { form: { question, answer: `Plain, "quoted" ${tag}` } });
  await api('post', '/faqs', { form: { question: `Another ${tag}`, answer: 'Second.' } });
  await api('post', '/faqs', { form: { question: 'Not in the search', answer: 'Left out.' } });

  await openSignedIn(page, '/faqs', { heading: 'FAQs' });
  await page.getByRole('textbox', { name: 'Search FAQs' }).fill(tag);
  await expect(listRange(page)).toHaveText('1–2 of 2');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^faqs-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  const lines = text.split('\r\n');
  expect(lines[0]).toBe('\uFEFFID,Question,Answer,Created');
  expect(lines).toHaveLength(4); // header, two rows, and the last line's end
  expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"") ${tag}","Plain, ""quoted"" ${tag}"`);
  expect(text).not.toContain('Not in the search');
});
