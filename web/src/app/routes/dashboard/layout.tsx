import { Button, Drawer } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useSessionUser } from '@/lib/session';
import { SideMenu } from './side-menu';

/** Side menu on wide screens; on phones the same menu opens from a drawer toggle. */
export function DashboardLayout() {
  const user = useSessionUser();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  // Following a menu link closes the drawer at once (a fresh, closed one): its animated close
  // would hand focus back to the toggle, away from the new page's heading.
  const [drawerKey, setDrawerKey] = useState(0);
  const navigated = (to: string) => {
    setOpen(false);
    if (to !== pathname) setDrawerKey((n) => n + 1);
  };
  if (!user) return null;
  return (
    <div className="dashboard">
      <aside className="dashboard__side">
        <SideMenu user={user} />
      </aside>
      <div className="dashboard__content">
        <Button
          className="dashboard__drawer-toggle"
          icon={<MenuOutlined />}
          onClick={() => setOpen(true)}
          aria-expanded={open}
          aria-controls="dashboard-drawer"
        >
          Dashboard Menu
        </Button>
        <Drawer
          key={drawerKey}
          id="dashboard-drawer"
          title="Dashboard"
          placement="left"
          open={open}
          onClose={() => setOpen(false)}
          width={260}
        >
          <SideMenu user={user} onNavigate={navigated} />
        </Drawer>
        <Outlet />
      </div>
    </div>
  );
}
