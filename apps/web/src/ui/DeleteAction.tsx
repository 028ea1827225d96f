/** The row action every list deletes with: a danger icon button behind a confirmation. */
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface DeleteActionProps {
  title: ReactNode;
  description?: ReactNode;
  onConfirm: () => unknown;
  testId: string;
  /** Shown instead of the confirmation while the record cannot be deleted. */
  disabledReason?: ReactNode;
  size?: 'small' | 'middle';
}

export function DeleteAction({ title, description, onConfirm, testId, disabledReason, size }: DeleteActionProps) {
  const { t } = useTranslation('ui');
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={t('delete')}
      cancelText={t('cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
      disabled={disabledReason !== undefined}
    >
      <Tooltip title={disabledReason ?? t('delete')}>
        <Button
          type="text"
          size={size}
          danger
          icon={<DeleteOutlined />}
          data-testid={testId}
          aria-label={t('delete')}
          disabled={disabledReason !== undefined}
        />
      </Tooltip>
    </Popconfirm>
  );
}
