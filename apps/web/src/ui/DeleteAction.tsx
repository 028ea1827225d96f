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
}

export function DeleteAction({ title, description, onConfirm, testId }: DeleteActionProps) {
  const { t } = useTranslation('ui');
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={t('delete')}
      cancelText={t('cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
    >
      <Tooltip title={t('delete')}>
        <Button type="text" danger icon={<DeleteOutlined />} data-testid={testId} aria-label={t('delete')} />
      </Tooltip>
    </Popconfirm>
  );
}
