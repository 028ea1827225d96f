/** Desktop sidebar open/closed, kept in the `sidebarStatus` cookie as 1 (open) or 0 (closed). */
import Cookies from 'js-cookie';
import { useCallback, useState } from 'react';

const SIDEBAR_COOKIE = 'sidebarStatus';

export function useSidebarOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => Cookies.get(SIDEBAR_COOKIE) !== '0');
  const save = useCallback((next: boolean) => {
    Cookies.set(SIDEBAR_COOKIE, next ? '1' : '0', { expires: 365, sameSite: 'lax' });
    setOpen(next);
  }, []);
  return [open, save];
}
