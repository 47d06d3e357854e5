'use client';
// Download CSV: the export of the current filter. The API wants the bearer token, which a plain
// link cannot send, so the page fetches the file and hands it to the browser as a download.
import { useState } from 'react';
import { exportCsv } from '@/lib/api-client/plants';
import type { Notice } from '../notices';
import { saveFile } from '../save-file';
import { UNREACHABLE_MESSAGE } from '../use-session-token';
import { ScriptButton } from '../script-button';

export function DownloadCsvButton({ token, query, onNotice }: { token: () => Promise<string | null>; query: string; onNotice: (notice: NonNullable<Notice>) => void }) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const bearer = await token();
      if (!bearer) return;
      const outcome = await exportCsv(bearer, query);
      if (outcome.kind !== 'ok') {
        return onNotice({ kind: 'error', text: outcome.kind === 'refused' ? outcome.message : UNREACHABLE_MESSAGE });
      }
      saveFile(outcome.csv, outcome.fileName);
      onNotice({ kind: 'success', text: `Downloaded ${outcome.fileName}.` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <ScriptButton className="secondary" onClick={download} disabled={busy}>
      {busy ? 'Preparing CSV…' : 'Download CSV'}
    </ScriptButton>
  );
}
