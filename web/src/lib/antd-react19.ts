import { unstableSetRender } from 'antd';
import { createRoot, type Root } from 'react-dom/client';

/**
 * antd 5 renders its static pieces (message, wave effect) with React 18's legacy render,
 * which React 19 removed; this hands it a createRoot renderer instead.
 */
type Container = (Element | DocumentFragment) & { _tvShopRoot?: Root };

unstableSetRender((node, container: Container) => {
  container._tvShopRoot ??= createRoot(container);
  const root = container._tvShopRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
  };
});
