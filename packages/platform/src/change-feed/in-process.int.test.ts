import { InProcessChangeFeed } from './in-process';
import { changeFeedContract } from '../testing/change-feed-contract';

changeFeedContract('in-process', async () => ({ feed: new InProcessChangeFeed(), dispose: async () => {} }));
