import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { api, type Values } from '../lib/api';
import { formatNumber } from '../lib/format';
import { toastError } from '../lib/toast';

/** Bytes as a person reads them while they arrive: "512 KB", "3.4 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.ceil(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * From this many rows on (some 40 MB of CSV and up), the export is written into a file the user
 * picks as it arrives, where the browser can (api.download), rather than gathered in the tab's
 * memory first; a smaller one is a plain download, without a dialog.
 */
export const STREAM_TO_FILE_ROWS = 100_000;

/**
 * "Export CSV": downloads every row of the list's current filters, keyword and sort (the server
 * streams them all, not just the page shown), showing the size received while it arrives.
 */
export function ExportButton(props: { download: { path: string; query: Values }; total: number }) {
  const [received, setReceived] = useState<number | undefined>(undefined);
  const busy = received !== undefined;
  const start = async () => {
    setReceived(0);
    try {
      await api.download(props.download.path, props.download.query, {
        onProgress: setReceived,
        toFile: props.total >= STREAM_TO_FILE_ROWS,
      });
    } catch (err) {
      toastError(err);
    } finally {
      setReceived(undefined);
    }
  };
  return (
    <Button
      size="compact-sm"
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      disabled={props.total === 0 || busy}
      onClick={() => void start()}
    >
      {!busy ? 'Export CSV' : received > 0 ? `Exporting… ${sizeText(received)}` : 'Exporting…'}
    </Button>
  );
}
