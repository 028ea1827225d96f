/** Checks the session every 20 s while a user is logged in (spec section 4). */
import { SESSION_CHECK_INTERVAL_MS } from '@herald/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, getPresenter, http } from '../api/http';
import { logout } from './session';

export function SessionWatcher() {
  const { t } = useTranslation('session');

  useEffect(() => {
    let expired = false;
    const timer = window.setInterval(() => {
      http.get('/data/users/session', undefined, { silent: true }).catch((error: unknown) => {
        // Only a refused token ends the session; a server that is down or slow must not sign anyone out.
        if (expired || !(error instanceof ApiError && error.status === 401)) return;
        expired = true;
        window.clearInterval(timer);
        getPresenter().modal.warning({
          title: t('expiredTitle'),
          content: t('errors:error.unauthorized'),
          okText: t('ok'),
          keyboard: false,
          onOk: async () => {
            await logout();
            window.location.reload();
          },
        });
      });
    }, SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [t]);

  return null;
}
