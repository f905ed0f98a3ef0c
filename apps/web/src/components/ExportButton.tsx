import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { api, errorText, type Values } from '../lib/api';
import { formatNumber } from '../lib/format';
import { toast } from '../lib/toast';

/** Bytes as a person reads them while they arrive: "512 KB", "3.4 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.ceil(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * "Export CSV": downloads every row of the list's current filters, keyword and sort (the server
 * streams them all, not just the page shown), showing the size received while it arrives.
 */
export function ExportButton(props: {
  download: { path: string; query: Values };
  disabled: boolean;
}) {
  const [received, setReceived] = useState<number | undefined>(undefined);
  const busy = received !== undefined;
  const start = async () => {
    setReceived(0);
    try {
      await api.download(props.download.path, props.download.query, setReceived);
    } catch (err) {
      toast('error', errorText(err), 5000);
    } finally {
      setReceived(undefined);
    }
  };
  return (
    <Button
      size="compact-sm"
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      disabled={props.disabled || busy}
      onClick={() => void start()}
    >
      {busy ? `Exporting… ${sizeText(received)}` : 'Export CSV'}
    </Button>
  );
}
