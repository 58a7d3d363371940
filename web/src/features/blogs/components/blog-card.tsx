import type { Blog } from '@tv-shop/contracts';

export function BlogCard({ blog }: { blog: Blog }) {
  const paragraphs = [blog.para1, blog.para2, blog.para3, blog.para4, blog.para5].filter((p): p is string => !!p);
  return (
    <article className="blog-card" aria-labelledby={`blog-${blog._id}`}>
      <h2 id={`blog-${blog._id}`} className="blog-card__question">
        {blog.ques}
      </h2>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </article>
  );
}
