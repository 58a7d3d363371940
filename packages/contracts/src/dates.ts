/** d-m-yyyy without padding, as the spec shows post dates (`postedOn`). */
export const postDate = (d: Date) => `${d.getUTCDate()}-${d.getUTCMonth() + 1}-${d.getUTCFullYear()}`;
