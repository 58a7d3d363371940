/** The categories a new marketplace starts with (spec section 3: category_name, name, bgColor, color). */
export const seedCategories = [
  { categoryId: 'samsung', category_name: 'Samsung', name: 'Samsung TV', bgColor: '#1428a0', color: '#ffffff' },
  { categoryId: 'sony', category_name: 'Sony', name: 'Sony Bravia', bgColor: '#111827', color: '#f9fafb' },
  { categoryId: 'lg', category_name: 'LG', name: 'LG Smart TV', bgColor: '#a50034', color: '#ffffff' },
  { categoryId: 'walton', category_name: 'Walton', name: 'Walton TV', bgColor: '#0e7490', color: '#ffffff' },
  { categoryId: 'xiaomi', category_name: 'Xiaomi', name: 'Mi TV', bgColor: '#ff6900', color: '#1f2937' },
  { categoryId: 'other', category_name: 'Other brands', name: 'Other brands', bgColor: '#e5e7eb', color: '#111827' },
];
