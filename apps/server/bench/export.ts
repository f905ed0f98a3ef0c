/**
 * The CSV export bench (issue #11): the whole posters list exported from the real server over
 * loopback (`GET /poster/list/export`, every row, in the list's order and sorted by downloads),
 * read as fast as the client can, while the server's resident memory is sampled from /proc every
 * 20 ms. Reports rows/s, MB/s and the RSS growth; the target is memory flat whatever the row
 * count: growth of at most 64 MB over the export (a million posters are about 400 MB of CSV).
 * A warm-up export of one app's posters runs first, so the export's code and statements are
 * loaded before the measurement.
 */
import http from 'node:http';
import { API_BASE, PATHS } from '@master-admin/contract';
import { rssMb } from './upload.ts';

export const EXPORT_TARGETS = { rssGrowthMb: 64 };

export type ExportResult = {
  db: string;
  name: string;
  rows: number;
  mb: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  status: number;
};

/** Reads an export to its end: the answer's status, its bytes and its lines (CRLF ends). */
function read(url: string, token: string) {
  return new Promise<{ status: number; bytes: number; lines: number }>((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
        let bytes = 0;
        let lines = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, lines }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const CASES = [
  { name: 'posters: every row, newest first', query: '' },
  { name: 'posters: every row, by downloads', query: '?sort=-downloadCount' },
];

export async function benchExport(options: {
  db: string;
  serverUrl: string;
  token: string;
  serverPid: number;
  /** A master app: the warm-up exports its posters. */
  warmUpApp: number | undefined;
}): Promise<ExportResult[]> {
  const url = `${options.serverUrl}${API_BASE}${PATHS.listExport(PATHS.posterList)}`;
  const warm = await read(
    `${url}${options.warmUpApp === undefined ? '' : `?masterAppId=${options.warmUpApp}`}`,
    options.token,
  );
  if (warm.status !== 200) throw new Error(`the warm-up export answered ${warm.status}`);
  const results: ExportResult[] = [];
  for (const c of CASES) {
    const rssBeforeMb = rssMb(options.serverPid);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, rssMb(options.serverPid));
    }, 20);
    const started = performance.now();
    const answer = await read(`${url}${c.query}`, options.token).finally(() =>
      clearInterval(sampler),
    );
    const seconds = (performance.now() - started) / 1000;
    rssPeakMb = Math.max(rssPeakMb, rssMb(options.serverPid));
    results.push({
      db: options.db,
      name: c.name,
      rows: answer.lines - 1,
      mb: answer.bytes / 1024 / 1024,
      seconds,
      rssBeforeMb,
      rssPeakMb,
      status: answer.status,
    });
  }
  return results;
}

/** The report's lines and whether every export kept its memory flat. */
export function reportExport(results: ExportResult[]): { lines: string[]; met: boolean } {
  let met = true;
  const rows = results.map((r) => {
    const growth = r.rssPeakMb - r.rssBeforeMb;
    const misses = [
      r.status !== 200 && `answered ${r.status}`,
      growth > EXPORT_TARGETS.rssGrowthMb && `RSS grew > ${EXPORT_TARGETS.rssGrowthMb} MB`,
    ].filter(Boolean);
    if (misses.length > 0) met = false;
    return `| ${r.db} | ${r.name} | ${r.rows.toLocaleString('en')} | ${(r.rows / r.seconds).toFixed(0)} | ${(r.mb / r.seconds).toFixed(1)} | ${r.mb.toFixed(0)} | ${r.rssBeforeMb.toFixed(0)} | ${r.rssPeakMb.toFixed(0)} | ${growth.toFixed(0)} | ${misses.length === 0 ? 'met' : misses.join(', ')} |`;
  });
  return {
    met,
    lines: [
      '\nCSV export of the posters list over loopback (server RSS sampled every 20 ms):',
      '| db | export | rows | rows/s | MB/s | file MB | server RSS before MB | peak MB | growth MB | targets |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ],
  };
}
