/**
 * Asks before leaving a form with unsaved changes: a route change (a tab, the sidebar, Back) waits for the user's word,
 * and a reload or a closed window gets the browser's own prompt. Screens that are not kept in the tab cache would
 * otherwise lose what was typed without a warning.
 */
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/** `markSaved` before navigating away after a save, so that navigation is not held. */
export function useUnsavedChanges(): { markDirty: () => void; markSaved: () => void } {
  const { t } = useTranslation('ui');
  const { modal } = App.useApp();
  const dirty = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('unsaved.title'),
      content: t('unsaved.description'),
      okText: t('unsaved.leave'),
      okButtonProps: { danger: true, 'data-testid': 'unsaved-leave' },
      cancelText: t('unsaved.stay'),
      onOk: () => {
        dirty.current = false;
        blocker.proceed();
      },
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirty.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return {
    markDirty: () => {
      dirty.current = true;
    },
    markSaved: () => {
      dirty.current = false;
    },
  };
}
