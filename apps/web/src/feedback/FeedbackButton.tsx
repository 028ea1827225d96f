/** The floating Feedback button of every screen (spec section 2); its dialog loads on the first click. */
import { CommentOutlined } from '@ant-design/icons';
import { Button, Tooltip, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The form, upload and modal code is only worth fetching once someone wants to write to us.
const loadDialog = () => import('./FeedbackDialog');
const FeedbackDialog = lazy(loadDialog);

export function FeedbackButton() {
  const { t } = useTranslation('feedback');
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  // Stays true after the first opening, so the closed dialog stays mounted and can animate out.
  const [wanted, setWanted] = useState(false);

  function show() {
    setWanted(true);
    setOpen(true);
  }

  return (
    <>
      <Tooltip title={t('button')} placement="left">
        <Button
          data-testid="feedback-button"
          aria-label={t('button')}
          type="primary"
          shape="circle"
          size="large"
          icon={<CommentOutlined />}
          onClick={show}
          // Hover or focus usually precedes a click by long enough to have the dialog ready.
          onPointerEnter={loadDialog}
          onFocus={loadDialog}
          // Where and how antd's FloatButton sits, without its code.
          style={{
            position: 'fixed',
            insetInlineEnd: token.marginLG,
            insetBlockEnd: token.marginXXL,
            zIndex: token.zIndexPopupBase,
            boxShadow: token.boxShadowSecondary,
          }}
        />
      </Tooltip>
      {wanted && (
        <Suspense fallback={null}>
          <FeedbackDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
