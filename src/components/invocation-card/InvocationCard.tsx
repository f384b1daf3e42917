import type { InvocationRow } from '../../runtime/fold';
import { useMemo, type ReactNode } from 'react';
import { InvocationCardApp } from './InvocationCardApp';
import { InvocationCardBody } from './InvocationCardBody';
import { InvocationCardCancel } from './InvocationCardCancel';
import { InvocationCardChecks } from './InvocationCardChecks';
import { InvocationCardDefaultsContext, type InvocationCardDefaults } from './context';
import { InvocationCardDetail } from './InvocationCardDetail';
import { InvocationCardMedia } from './InvocationCardMedia';
import { InvocationCardOutput } from './InvocationCardOutput';
import { InvocationCardProgress } from './InvocationCardProgress';
import { InvocationCardResult } from './InvocationCardResult';
import { useRenderersBelow } from './renderers';
import { InvocationCardRetry } from './InvocationCardRetry';
import { InvocationCardRoot } from './InvocationCardRoot';
import { InvocationCardStatus } from './InvocationCardStatus';
import { InvocationCardTitle } from './InvocationCardTitle';

export interface InvocationCardProps {
  /** The invocation to show. */
  row: InvocationRow;
}

/**
 * The assembled card; recompose it from `InvocationCard.Root` and its parts to change the layout.
 * @example
 * <InvocationCard row={row} />
 */
function InvocationCardAssembled({ row }: InvocationCardProps) {
  return (
    <InvocationCardRoot row={row}>
      <header data-part="invocation-card-header">
        <InvocationCardTitle />
        <InvocationCardStatus />
        <InvocationCardCancel />
        <InvocationCardRetry />
      </header>
      <InvocationCardBody />
      <InvocationCardChecks />
      <InvocationCardDetail />
    </InvocationCardRoot>
  );
}
InvocationCardAssembled.displayName = 'InvocationCard';

/**
 * Settings for every card below it: `details={false}` drops the Details
 * disclosure (output, fields, raw result) for a host whose users never want it;
 * `apps={false}` shows no MCP App views (results stay plain text);
 * `renderers` gives the host's own component for the body of a capability's
 * cards (added to those of an outer `Defaults`, by capability name).
 * @example
 * <InvocationCard.Defaults details={false}><ChatSurface workspace={workspace} /></InvocationCard.Defaults>
 * <InvocationCard.Defaults renderers={{ 'records.list': RecordsTable }}>…</InvocationCard.Defaults>
 */
function InvocationCardDefaultsProvider({ children, ...defaults }: Partial<InvocationCardDefaults> & { children?: ReactNode }) {
  const renderers = useRenderersBelow(defaults.renderers);
  const { details = true, apps = true } = defaults;
  const value = useMemo(() => ({ details, apps, ...(renderers ? { renderers } : {}) }), [details, apps, renderers]);
  return <InvocationCardDefaultsContext.Provider value={value}>{children}</InvocationCardDefaultsContext.Provider>;
}
InvocationCardDefaultsProvider.displayName = 'InvocationCard.Defaults';

export const InvocationCard = Object.assign(InvocationCardAssembled, {
  Root: InvocationCardRoot,
  Title: InvocationCardTitle,
  Status: InvocationCardStatus,
  Progress: InvocationCardProgress,
  Output: InvocationCardOutput,
  Result: InvocationCardResult,
  Media: InvocationCardMedia,
  App: InvocationCardApp,
  Body: InvocationCardBody,
  Detail: InvocationCardDetail,
  Checks: InvocationCardChecks,
  Defaults: InvocationCardDefaultsProvider,
  Cancel: InvocationCardCancel,
  Retry: InvocationCardRetry,
});
