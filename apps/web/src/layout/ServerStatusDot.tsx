/** Top bar server status: a green or red dot from GET /health. */
import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useServerHealth } from './useServerHealth';

const BADGE = { up: 'success', down: 'error', checking: 'processing' } as const;

export function ServerStatusDot({ compact }: { compact: boolean }) {
  const { t } = useTranslation('layout');
  const { status } = useServerHealth();
  return (
    <Tooltip title={t(`server.${status}`)}>
      <span
        data-testid="server-status"
        data-status={status}
        style={{ display: 'inline-flex', alignItems: 'center', padding: '0 8px' }}
      >
        <Badge status={BADGE[status]} text={compact ? undefined : t(`server.short.${status}`)} />
      </span>
    </Tooltip>
  );
}
