import { Popconfirm, type PopconfirmProps } from 'antd';
import { useId, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';

type Props = Pick<PopconfirmProps, 'title' | 'description' | 'okText' | 'cancelText' | 'okButtonProps'> & {
  onConfirm: () => void;
  /** The button that asks; it gets the focus back when the question closes. */
  children: ReactElement;
};

/**
 * A question asked beside the button before an action that cannot be taken back (antd's
 * Popconfirm), usable from the keyboard too: as it opens the focus moves into it, on Cancel (the
 * answer that changes nothing), so Tab reaches its buttons next rather than the rest of the page;
 * Escape inside it closes it; and the focus goes back to the button that asked, when it is still
 * there (an action that removes its row leaves the page to put the focus where it belongs).
 */
export function ConfirmAction({ onConfirm, children, ...question }: Props) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLSpanElement>(null);
  const popup = `confirm-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;

  const close = () => {
    setOpen(false);
    trigger.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
  };
  // Events in the question (a portal) reach this element through React's tree.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    close();
  };

  return (
    <span ref={trigger} className="confirm-action" onKeyDown={onKeyDown}>
      <Popconfirm
        {...question}
        open={open}
        onOpenChange={setOpen}
        rootClassName={popup}
        onConfirm={() => {
          close();
          onConfirm();
        }}
        onCancel={close}
        afterOpenChange={(opened) => {
          if (opened) document.querySelector<HTMLElement>(`.${popup} .ant-popconfirm-buttons .ant-btn:not(.ant-btn-primary)`)?.focus();
        }}
      >
        {children}
      </Popconfirm>
    </span>
  );
}
