import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { Loaded } from '@/components/ui/loaded';
import { useCategories } from '../api/get-categories';

/** 1 column on phones, 3 from medium screens (the grid's CSS). */
export function CategoriesGrid() {
  const { categories, loading, error, retry } = useCategories();
  return (
    <section className="section" aria-labelledby="categories-heading">
      <header className="section-heading">
        <p className="section-heading__kicker">CATEGORIES</p>
        <h2 id="categories-heading">Browse TVs by Brand</h2>
      </header>
      <Loaded loading={loading} error={error} retry={retry} what="categories">
        <ul className="categories-grid">
          {categories.map((category) => (
            <li key={category._id}>
              <Link
                className="category-tile"
                to={paths.category.href(category._id)}
                style={{ background: category.bgColor, color: category.color }}
              >
                <span className="category-tile__name">{category.category_name}</span>
                {/* Said once when both say the same ("Other brands"). */}
                {category.name !== category.category_name ? <span className="category-tile__sub">{category.name}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      </Loaded>
    </section>
  );
}
