export const BUILDER = 'builder';
