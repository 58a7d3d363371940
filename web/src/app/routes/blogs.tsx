import { Loaded } from '@/components/ui/loaded';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { useBlogs } from '@/features/blogs/api/get-blogs';
import { BlogCard } from '@/features/blogs/components/blog-card';
import { usePageTitle } from '@/lib/use-page-title';

export function BlogsPage() {
  usePageTitle(paths.blogs.title);
  const { blogs, loading, error, retry } = useBlogs();
  return (
    <div className="page">
      <PageHeading kicker="BLOGS" title="Read Our Blogs" />
      <Loaded loading={loading} error={error} retry={retry} what="blogs">
        <div className="blog-list">
          {blogs.map((blog) => (
            <BlogCard key={blog._id} blog={blog} />
          ))}
        </div>
      </Loaded>
    </div>
  );
}
