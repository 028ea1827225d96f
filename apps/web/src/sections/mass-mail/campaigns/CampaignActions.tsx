/** What can be done with a campaign in its state: open, edit, pause, resume, cancel, duplicate, delete. */
import {
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  FileSearchOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Space, Tooltip } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CAMPAIGNS_KEY, type Campaign, campaignKey, campaignsApi, LISTS_KEY } from './api';

type Action = 'view' | 'log' | 'edit' | 'pause' | 'resume' | 'cancel' | 'duplicate' | 'delete';

/** Which actions a state allows; the server refuses the others. */
function allowed(campaign: Campaign): Action[] {
  switch (campaign.state) {
    case 'draft':
      return ['view', 'edit', 'duplicate', 'delete'];
    case 'scheduled':
      return ['view', 'edit', 'cancel', 'duplicate', 'delete'];
    case 'sending':
      return ['view', 'log', 'pause', 'cancel', 'duplicate'];
    case 'paused':
      return ['view', 'log', 'resume', 'cancel', 'duplicate'];
    default:
      return ['view', 'log', 'duplicate', 'delete'];
  }
}

const ICONS: Record<Action, ReactNode> = {
  view: <EyeOutlined />,
  log: <FileSearchOutlined />,
  edit: <EditOutlined />,
  pause: <PauseCircleOutlined />,
  resume: <PlayCircleOutlined />,
  cancel: <StopOutlined />,
  duplicate: <CopyOutlined />,
  delete: <DeleteOutlined />,
};

interface CampaignActionsProps {
  campaign: Campaign;
  /** Icon buttons for a table row, labelled buttons for a page header. */
  variant: 'icons' | 'buttons';
  /** Actions this screen leaves out (a view does not link to itself). */
  hide?: readonly Action[];
  onDeleted?: () => void;
  /** A campaign's own page opens the copy it made; the list shows it in place. */
  openCopy?: boolean;
}

export function CampaignActions({ campaign, variant, hide = [], onDeleted, openCopy = false }: CampaignActionsProps) {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Action>();
  // A tooltip left open over a confirmation would cover its buttons.
  const [confirming, setConfirming] = useState<Action>();

  // Failed calls are reported by the HTTP client; the catch only ends the promise.
  const run = async (action: Action, call: () => Promise<unknown>, done: () => void) => {
    setBusy(action);
    try {
      await call();
      done();
    } catch {
      return;
    } finally {
      setBusy(undefined);
    }
  };

  const changeState = (action: 'pause' | 'resume' | 'cancel') =>
    run(
      action,
      async () => {
        const changed = await campaignsApi.act(campaign.id, action);
        queryClient.setQueryData(campaignKey(campaign.id), changed);
      },
      () => {
        message.success(t(`actions.${action}Done`, { name: campaign.name }));
        void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
      },
    );

  const duplicate = () => {
    let copy: Campaign | undefined;
    return run(
      'duplicate',
      async () => {
        copy = await campaignsApi.act(campaign.id, 'duplicate');
      },
      () => {
        message.success(t('actions.duplicateDone', { name: campaign.name }));
        void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
        if (openCopy && copy) navigate(`/mass-mail/campaigns/view/${copy.id}`);
      },
    );
  };

  const remove = () =>
    run(
      'delete',
      () => campaignsApi.remove(campaign.id),
      () => {
        message.success(t('actions.deleteDone', { name: campaign.name }));
        queryClient.removeQueries({ queryKey: campaignKey(campaign.id) });
        void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
        onDeleted?.();
      },
    );

  const button = (action: Action, onClick?: () => void, danger = false) => {
    const label = t(`actions.${action}`);
    const common = {
      icon: ICONS[action],
      danger,
      loading: busy === action,
      onClick,
      'data-testid': `campaign-${action}`,
    };
    return variant === 'icons' ? (
      <Tooltip title={label} open={confirming === action ? false : undefined}>
        <Button type="text" aria-label={label} {...common} />
      </Tooltip>
    ) : (
      <Button {...common}>{label}</Button>
    );
  };

  const confirm = (action: 'cancel' | 'delete', onConfirm: () => void) => (
    <Popconfirm
      title={t(`actions.${action}Confirm`, { name: campaign.name })}
      description={t(`actions.${action}Description`)}
      okText={t(`actions.${action}Ok`)}
      cancelText={t('actions.keep')}
      okButtonProps={{ danger: true }}
      placement={variant === 'icons' ? 'topRight' : 'bottomRight'}
      onOpenChange={(open) => setConfirming(open ? action : undefined)}
      onConfirm={onConfirm}
    >
      {button(action, undefined, true)}
    </Popconfirm>
  );

  const shown = allowed(campaign).filter((action) => !hide.includes(action));
  const render: Record<Action, () => ReactNode> = {
    view: () => button('view', () => navigate(`/mass-mail/campaigns/view/${campaign.id}`)),
    log: () => button('log', () => navigate(`/mass-mail/campaigns/statistics/${campaign.id}`)),
    edit: () => button('edit', () => navigate(`/mass-mail/campaigns/create?id=${campaign.id}`)),
    pause: () => button('pause', () => void changeState('pause')),
    resume: () => button('resume', () => void changeState('resume')),
    cancel: () => confirm('cancel', () => void changeState('cancel')),
    duplicate: () => button('duplicate', () => void duplicate()),
    delete: () => confirm('delete', () => void remove()),
  };
  return (
    <Space size={variant === 'icons' ? 0 : 8} wrap={variant === 'buttons'}>
      {shown.map((action) => (
        <span key={action}>{render[action]()}</span>
      ))}
    </Space>
  );
}
