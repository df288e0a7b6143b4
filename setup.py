"""The one compiled module, ``sewer_native._kernels`` (pyproject.toml holds everything else).

It is optional: where no C compiler is at hand the build goes on without it, and
``sewer_rules.monitoring.native`` then reports it absent and the pure numpy and polars paths
run instead (the same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sewer_native._kernels",
            ["src/sewer_native/_kernels.c", "src/sewer_native/_historian.c"],
            depends=["src/sewer_native/_historian.h"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        )
    ]
)
