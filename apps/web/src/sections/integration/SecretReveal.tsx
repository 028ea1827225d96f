/** A key or secret shown once: copyable, with the warning that it cannot be seen again. */
import { Alert, Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface SecretRevealProps {
  title: string;
  secret: string | undefined;
  onClose: () => void;
  testId: string;
}

export function SecretReveal({ title, secret, onClose, testId }: SecretRevealProps) {
  const { t } = useTranslation('integration');
  return (
    <Modal
      open={secret !== undefined}
      title={title}
      onCancel={onClose}
      maskClosable={false}
      // Leaves no copy of the value in the page once the dialog is closed.
      destroyOnHidden
      footer={
        <Button type="primary" data-testid={`${testId}-close`} onClick={onClose}>
          {t('actions.savedIt')}
        </Button>
      }
    >
      <Alert type="warning" showIcon message={t('secret.onceTitle')} description={t('secret.onceText')} />
      <Typography.Paragraph
        code
        copyable={{ text: secret ?? '' }}
        data-testid={testId}
        style={{ marginTop: 16, wordBreak: 'break-all', fontSize: 15 }}
      >
        {secret}
      </Typography.Paragraph>
    </Modal>
  );
}
