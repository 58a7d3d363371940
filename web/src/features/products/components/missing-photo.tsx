import { CameraIcon } from '@/components/ui/icons';

/** Where a listing's photo could not be loaded: the same box, a camera and a word, named as the photo was. */
export function MissingPhoto({ alt }: { alt: string }) {
  return (
    <span className="photo-missing" role="img" aria-label={alt}>
      <CameraIcon />
      <span aria-hidden="true">No photo</span>
    </span>
  );
}
