import { useEffect, useRef, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { CloseIcon, MenuIcon } from '@/components/ui/icons';
import { useSessionUser } from '@/lib/session';
import { SideMenu } from './side-menu';

/**
 * Side menu on wide screens; on phones the same menu opens in a drawer: a modal <dialog> (the
 * browser keeps focus in it, Escape and the backdrop close it), in plain markup so the dashboard
 * paints without antd (ADR 0043).
 */
export function DashboardLayout() {
  const user = useSessionUser();
  const drawer = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  // Widened to where the side menu shows (992 px, styles.css): the drawer has no reason to stay.
  useEffect(() => {
    const wide = window.matchMedia('(min-width: 992px)');
    const onChange = () => {
      if (wide.matches) drawer.current?.close();
    };
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, []);
  if (!user) return null;
  const show = () => {
    drawer.current?.showModal();
    setOpen(true);
  };
  const close = () => drawer.current?.close();
  return (
    <div className="dashboard">
      <aside className="dashboard__side">
        <SideMenu user={user} />
      </aside>
      <div className="dashboard__content">
        <Button
          className="dashboard__drawer-toggle"
          icon={<MenuIcon />}
          onClick={show}
          aria-expanded={open}
          aria-controls="dashboard-drawer"
        >
          Dashboard Menu
        </Button>
        <dialog
          id="dashboard-drawer"
          ref={drawer}
          className="drawer"
          aria-labelledby="dashboard-drawer-title"
          onClose={() => setOpen(false)}
          // A click on the backdrop lands on the dialog itself; the panel inside covers the rest.
          onClick={(e) => {
            if (e.target === e.currentTarget) close();
          }}
        >
          <div className="drawer__panel">
            <div className="drawer__head">
              <h2 id="dashboard-drawer-title">Dashboard</h2>
              <button type="button" className="drawer__close" aria-label="Close" onClick={close}>
                <CloseIcon />
              </button>
            </div>
            {/* Following a link closes the drawer; the new page then takes focus to its heading. */}
            {open ? <SideMenu user={user} onNavigate={close} /> : null}
          </div>
        </dialog>
        <Outlet />
      </div>
    </div>
  );
}
