{
  "targets": [
    {
      "target_name": "release_free_memory",
      "sources": ["native/release-free-memory.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"]
    }
  ]
}
