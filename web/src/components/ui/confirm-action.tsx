import { Popconfirm, type PopconfirmProps } from 'antd';
import { useId, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';

type Props = Pick<PopconfirmProps, 'title' | 'description' | 'okText' | 'cancelText' | 'okButtonProps'> & {
  onConfirm: () => void;
  /** The question opens: what the answer will be about is what the page shows now. */
  onOpen?: () => void;
  /** The button that asks; it gets the focus back when the question closes. */
  children: ReactElement;
};

/**
 * A question asked beside the button before an action that cannot be taken back (antd's
 * Popconfirm, made an alert dialog named by its question), usable from the keyboard too: as it
 * opens the focus moves into it, on Cancel (the answer that changes nothing), and Tab goes round
 * its buttons rather than on to the rest of the page; Escape inside it closes it; and the focus
 * goes back to the button that asked, when it is still there (an action that removes its row
 * leaves the page to put the focus where it belongs).
 */
export function ConfirmAction({ onConfirm, onOpen, children, ...question }: Props) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLSpanElement>(null);
  const popup = `confirm-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;

  const close = () => {
    setOpen(false);
    trigger.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
  };
  // Events in the question (a portal) reach this element through React's tree.
  const onKeyDown = (e: KeyboardEvent) => {
    if (!open) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') {
      // The question keeps the focus until it is answered: Tab goes round its two buttons rather
      // than out of the popup at the end of the page, where Escape would no longer reach it.
      const buttons = [...document.querySelectorAll<HTMLElement>(`.${popup} .ant-popconfirm-buttons .ant-btn:not(:disabled)`)];
      const at = buttons.indexOf(document.activeElement as HTMLElement);
      if (at === -1 || buttons.length === 0) return;
      e.preventDefault();
      buttons[(at + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length]!.focus();
    }
  };

  return (
    <span ref={trigger} className="confirm-action" onKeyDown={onKeyDown}>
      <Popconfirm
        {...question}
        open={open}
        onOpenChange={(next) => {
          if (next) onOpen?.();
          setOpen(next);
        }}
        rootClassName={popup}
        onConfirm={() => {
          close();
          onConfirm();
        }}
        onCancel={close}
        afterOpenChange={(opened) => {
          if (!opened) return;
          // antd marks the question a tooltip, so a screen reader landing on Cancel heard only
          // "Cancel": as an alert dialog named by its question it is read out as it opens.
          const box = document.querySelector<HTMLElement>(`.${popup} .ant-popover-inner`);
          const named = (part: string) => {
            const el = box?.querySelector(`.ant-popconfirm-${part}`);
            if (el) el.id = `${popup}-${part}`;
            return el ? el.id : '';
          };
          box?.setAttribute('role', 'alertdialog');
          box?.setAttribute('aria-modal', 'true');
          box?.setAttribute('aria-labelledby', named('title'));
          box?.setAttribute('aria-describedby', named('description'));
          document.querySelector<HTMLElement>(`.${popup} .ant-popconfirm-buttons .ant-btn:not(.ant-btn-primary)`)?.focus();
        }}
      >
        {children}
      </Popconfirm>
    </span>
  );
}
