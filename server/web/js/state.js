export function placeholder() {}
