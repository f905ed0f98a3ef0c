/**
 * "Export CSV" under every list: it asks the list's export for the current filters, keyword and
 * sort (no paging), with the token, and hands the file to the browser's download (a Blob here;
 * jsdom has no file picker), or writes it into the file the user picks where the browser can.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { STREAM_TO_FILE_ROWS } from '../src/components/ExportButton';
import { HttpResponse, errorJson, http, api, server } from './server';

const CSV = '\uFEFFID,Question,Answer,Created\r\n3,"Can I pay, by card?",Yes.,2026-11-20\r\n';
const faq = {
  id: 3,
  version: 1,
  question: 'Can I pay?',
  answer: 'Yes.',
  createdAt: '2026-11-20T10:00:00Z',
};

function listAnswers(total = 1) {
  server.use(
    http.get(api('/faqs/list'), () =>
      HttpResponse.json({ result: total ? [faq] : [], total, nextCursor: null }),
    ),
  );
}

/** Catches the download link the app clicks: its name and the file's text. */
function catchDownload() {
  const blobs = new Map<string, Blob>();
  let n = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  const clicked: Array<{ name: string; blob: Blob }> = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return clicked;
}

afterEach(() => {
  vi.restoreAllMocks();
  delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
});

describe('export CSV', () => {
  it('downloads every row of the current search, filters and sort, with the token', async () => {
    listAnswers();
    const requests: Request[] = [];
    server.use(
      http.get(api('/faqs/list/export'), ({ request }) => {
        requests.push(request);
        return new HttpResponse(CSV, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="faqs-2026-11-24.csv"',
          },
        });
      }),
    );
    const clicked = catchDownload();
    // A small export is a plain download, even where a file picker is offered.
    const picker = vi.fn();
    (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = picker;
    renderApp('/faqs?q=pay&sort=-question&page=2&limit=50', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe('/api/v1/faqs/list/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({ keyword: 'pay', sort: '-question' });
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer test-token');
    expect(clicked[0]!.name).toBe('faqs-2026-11-24.csv');
    expect(picker).not.toHaveBeenCalled();
    // The bytes, BOM and all (text() would drop the BOM).
    expect(Buffer.from(await clicked[0]!.blob.arrayBuffer()).toString('utf8')).toBe(CSV);
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('a large export is written into the file the user picks, where the browser can', async () => {
    listAnswers(STREAM_TO_FILE_ROWS);
    server.use(
      http.get(
        api('/faqs/list/export'),
        () =>
          new HttpResponse(CSV, {
            headers: { 'content-disposition': 'attachment; filename="faqs-2026-11-24.csv"' },
          }),
      ),
    );
    const written: Uint8Array[] = [];
    let closed = false;
    const picker = vi.fn(async () => ({
      createWritable: async () =>
        new WritableStream<Uint8Array>({
          write: (chunk) => void written.push(chunk),
          close: () => void (closed = true),
        }),
    }));
    (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = picker;
    const clicked = catchDownload();
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(picker).toHaveBeenCalledWith(
      expect.objectContaining({ suggestedName: 'faqs-2026-11-24.csv' }),
    );
    expect(Buffer.concat(written).toString('utf8')).toBe(CSV);
    expect(clicked).toHaveLength(0);
  });

  it('says why an export failed, and is off for an empty list', async () => {
    listAnswers();
    server.use(
      http.get(api('/faqs/list/export'), () =>
        errorJson(400, 'Bad Request', 'keyword: Too long', 'keyword'),
      ),
    );
    const clicked = catchDownload();
    renderApp('/faqs', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('keyword: Too long')).toBeInTheDocument();
    expect(clicked).toHaveLength(0);

    listAnswers(0);
    renderApp('/faqs?q=nothing', { signedInAs: 'a@b.c' });
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Export CSV' }).at(-1)).toBeDisabled(),
    );
  });
});
