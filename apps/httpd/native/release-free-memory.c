/*
 * Hands the memory malloc keeps after frees back to the kernel (glibc's malloc_trim), on
 * libuv's thread pool so the event loop never waits for it.
 *
 * Why: glibc keeps freed chunks in its arenas, and only the part at the top of an arena is
 * ever returned on its own. After a burst of big answers (diffs, blobs, compressed bodies)
 * the process keeps tens to hundreds of MB it no longer uses (tools/bench/README.md,
 * "Memory malloc kept after bursts"). Node has no way to ask for it back, hence this file.
 *
 * Other C libraries (musl, macOS) have no malloc_trim: the module still builds and says so
 * through `supported`.
 */
#include <node_api.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  int released;
} TrimJob;

static void run_trim(napi_env env, void *data) {
  (void)env;
  TrimJob *job = data;
#if defined(__GLIBC__)
  job->released = malloc_trim(0);
#else
  job->released = 0;
#endif
}

static void finish_trim(napi_env env, napi_status status, void *data) {
  TrimJob *job = data;
  napi_value result;
  napi_get_boolean(env, status == napi_ok && job->released == 1, &result);
  napi_resolve_deferred(env, job->deferred, result);
  napi_delete_async_work(env, job->work);
  free(job);
}

/* releaseFreeMemory(): Promise<boolean>, true when some memory went back to the kernel. */
static napi_value release_free_memory(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value promise, name;
  TrimJob *job = calloc(1, sizeof *job);
  if (job == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "releaseFreeMemory", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, run_trim, finish_trim, job, &job->work) != napi_ok ||
      napi_queue_async_work(env, job->work) != napi_ok) {
    free(job);
    napi_throw_error(env, NULL, "could not queue the memory release");
    return NULL;
  }
  return promise;
}

NAPI_MODULE_INIT() {
  napi_value fn, supported;
  napi_create_function(env, "releaseFreeMemory", NAPI_AUTO_LENGTH, release_free_memory, NULL, &fn);
  napi_set_named_property(env, exports, "releaseFreeMemory", fn);
#if defined(__GLIBC__)
  napi_get_boolean(env, 1, &supported);
#else
  napi_get_boolean(env, 0, &supported);
#endif
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}
