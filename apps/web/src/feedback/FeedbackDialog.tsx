/** The Feedback dialog (spec sections 4 and 5), loaded on the first click of the floating button. */
import { UploadOutlined } from '@ant-design/icons';
import { FEEDBACK_MAX_FILE_BYTES, FEEDBACK_MAX_FILES, FEEDBACK_NOTIFY_MS, isAllowedFeedbackFile, isEmail } from '@herald/shared';
import { Button, Form, type FormRule, Input, Modal, Upload, type UploadFile, type UploadProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, getPresenter, http } from '../api/http';
import { getSnapshot } from '../session/session';

interface FeedbackValues {
  name: string;
  email: string;
  desc: string;
}

const SERVER_FIELDS: Record<string, keyof FeedbackValues> = { name: 'name', email: 'email', desc: 'desc' };

const NOTIFY_SECONDS = FEEDBACK_NOTIFY_MS / 1000;

// The picker offers images only, but dropped files must still reach beforeUpload so a wrong one is reported, not silently skipped.
const ACCEPT: UploadProps['accept'] = { format: '.png,.jpg,.jpeg', filter: 'native' };

function filled(key: string, t: (key: string) => string): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (!(value ?? '').trim()) throw new Error(t(key));
    },
  };
}

export default function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('feedback');
  const [form] = Form.useForm<FeedbackValues>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [sending, setSending] = useState(false);

  // Each opening starts from the signed-in user's address (the last close cleared it); read once, so typing is never overwritten.
  useEffect(() => {
    const { user } = getSnapshot();
    if (open && user) form.setFieldsValue({ email: user.username });
  }, [open, form]);

  function close() {
    form.resetFields();
    setFiles([]);
    onClose();
  }

  /** Every file of one selection gets the same verdict; a refused selection clears the whole list (spec section 5). */
  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    let refusal: string | undefined;
    if (batch.some((item) => !isAllowedFeedbackFile(item.name, item.type)) || files.length + batch.length > FEEDBACK_MAX_FILES) {
      refusal = t('errors:upload.wrongFile');
    } else if (batch.some((item) => item.size > FEEDBACK_MAX_FILE_BYTES)) {
      refusal = t('errors:upload.tooLarge', { limit: `${FEEDBACK_MAX_FILE_BYTES / 1024 / 1024} MB` });
    }
    // Returning false keeps the file in the list without uploading it; it goes out with the form.
    if (!refusal) return false;
    if (file.uid === batch[0]?.uid) {
      getPresenter().message.error(refusal, NOTIFY_SECONDS);
      setFiles([]);
    }
    return Upload.LIST_IGNORE;
  };

  async function send() {
    let values: FeedbackValues;
    try {
      values = await form.validateFields();
    } catch {
      // The failing fields show their own messages.
      return;
    }
    const body = new FormData();
    body.append('name', values.name.trim());
    body.append('email', values.email.trim());
    body.append('desc', values.desc.trim());
    const attachments = files.flatMap((file) => (file.originFileObj ? [file.originFileObj] : []));
    for (const [index, file] of attachments.entries()) body.append(`file${index}`, file, file.name);
    setSending(true);
    try {
      await http.postMultipart('/feedback', body, { silent: true });
      getPresenter().message.success(t('errors:feedback.successNotify'), NOTIFY_SECONDS);
      close();
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields ?? []) : [];
      const fieldErrors = fields.flatMap((field) => {
        const name = SERVER_FIELDS[field.field];
        return name ? [{ name, errors: [field.message] }] : [];
      });
      form.setFields(fieldErrors);
      // A file the server found not to be an image (a .png name on other bytes): the spec's wrong-file message, list cleared.
      const badFile = fields.find((field) => /^file\d+$/.test(field.field));
      if (badFile) setFiles([]);
      getPresenter().message.error(badFile ? badFile.message : t('errors:feedback.errorNotify'), NOTIFY_SECONDS);
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal
      open={open}
      title={t('title')}
      mask={{ closable: false }}
      keyboard={false}
      closable={false}
      forceRender
      onCancel={close}
      modalRender={(node) => <div data-testid="feedback-modal">{node}</div>}
      footer={[
        <Button key="cancel" data-testid="feedback-cancel" onClick={close} disabled={sending}>
          {t('cancel')}
        </Button>,
        <Button key="send" data-testid="feedback-send" type="primary" loading={sending} onClick={send}>
          {t('send')}
        </Button>,
      ]}
    >
      <Form<FeedbackValues> form={form} layout="vertical" requiredMark={false} disabled={sending}>
        <Form.Item name="name" label={t('name')} validateTrigger="onBlur" rules={[filled('errors:feedbackNameMissing', t)]}>
          <Input data-testid="feedback-name" autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('email')}
          validateTrigger="onBlur"
          rules={[
            filled('errors:emailMissing', t),
            {
              validator: async (_, value: string | undefined) => {
                const email = (value ?? '').trim();
                if (email && !isEmail(email)) throw new Error(t('errors:invalidEmail'));
              },
            },
          ]}
        >
          <Input data-testid="feedback-email" type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="desc" label={t('desc')} validateTrigger="onBlur" rules={[filled('errors:feedbackDescMissing', t)]}>
          <Input.TextArea data-testid="feedback-desc" rows={4} />
        </Form.Item>
        <Form.Item label={t('files', { n: FEEDBACK_MAX_FILES })}>
          <div data-testid="feedback-files">
            <Upload
              accept={ACCEPT}
              multiple
              listType="picture"
              fileList={files}
              beforeUpload={beforeUpload}
              onChange={({ fileList }) => setFiles(fileList)}
            >
              <Button icon={<UploadOutlined />}>{t('attach')}</Button>
            </Upload>
          </div>
        </Form.Item>
      </Form>
    </Modal>
  );
}
