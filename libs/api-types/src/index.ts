export const LIBRARY_NAME = '@forge-httpd/api-types';
