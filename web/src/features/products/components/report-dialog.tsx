import { Modal } from 'antd';
import TextArea from 'antd/es/input/TextArea';
import type { Product } from '@tv-shop/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import toast from 'react-hot-toast';
import { ApiError } from '@/lib/api-client';
import { useSubmit } from '@/lib/use-submit';
import { reportProduct } from '../api/report-product';
import { usePatchProduct } from '../use-patch-product';
import { Notice } from '@/components/ui/notice';

export const REPORT_REASON_MAX = 500;

/** The Add Report dialog: room to say what is wrong; the admin reads it in Reported Items. */
export function ReportDialog({ product, onClose, onReported }: { product: Product; onClose: () => void; onReported: () => void }) {
  const [reason, setReason] = useState('');
  const patchProduct = usePatchProduct();
  const send = useCallback(async () => {
    try {
      const answer = await reportProduct(product._id, reason.trim());
      patchProduct(product._id, answer, { reported: true });
      toast.success('Add Report Successfully');
    } catch (error) {
      // One report per buyer: a report sent before (another tab, before a reload) is no failure.
      // Only that refusal: another 409 (a write that met others) is said as it is.
      if (!(error instanceof ApiError && error.status === 409 && error.problem.type?.endsWith('/illegal-state'))) throw error;
      toast('You have already reported this TV; the admin reviews it.');
    }
    onReported();
    onClose();
  }, [product._id, reason, patchProduct, onClose, onReported]);
  const { submit, busy, error, setError } = useSubmit(send);
  const close = () => {
    setError(null);
    onClose();
  };
  const fieldId = `report-reason-${product._id}`;
  // Opened, the dialog puts the focus in the reason, as the booking dialog does in its first field:
  // typed at once, it is not lost on the dialog's frame.
  const field = useRef<TextAreaRef>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <Modal
      open
      title={`Report ${product.porduct_name}?`}
      okText="Report"
      okButtonProps={{ danger: true, loading: busy }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      // Once its opening has ended, antd may have put the focus on the dialog's frame: back to the
      // reason, unless the buyer has gone on to a button meanwhile.
      afterOpenChange={(opened) => {
        if (opened && !document.activeElement?.matches('textarea, button, input')) field.current?.focus();
      }}
    >
      <p>The admin reviews reported listings and removes those that break the rules.</p>
      <label htmlFor={fieldId} className="report-reason__label">
        What is wrong with this listing? (optional)
      </label>
      {/* The count sits under the field (antd places it outside the box): room for it above the buttons. */}
      <div className="report-reason__field">
        <TextArea
          ref={field}
          id={fieldId}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          maxLength={REPORT_REASON_MAX}
          showCount
          autoSize={{ minRows: 3, maxRows: 6 }}
          placeholder="e.g. the photo shows a different TV"
        />
      </div>
      {error ? <Notice role="alert" type="error" title={error} className="report-reason__error" /> : null}
    </Modal>
  );
}
