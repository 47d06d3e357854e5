import { handleAuthRequest } from '@/lib/auth/next-auth-route';

export { handleAuthRequest as GET, handleAuthRequest as POST };
