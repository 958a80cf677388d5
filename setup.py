"""Package list for setuptools; all other metadata lives in pyproject.toml.

The YAML data in the top-level ``configs/`` folder ships inside the package as ``ccg_env.configs``
(``package-dir`` in pyproject.toml maps it), so its packages are listed here by hand from that folder.
"""

from setuptools import find_namespace_packages, setup

SKIP = ["*__pycache__*"]
CODE_PACKAGES = find_namespace_packages(include=["ccg_env", "ccg_env.*", "agents", "agents.*"], exclude=SKIP)
CONFIG_PACKAGES = ["ccg_env.configs"] + [
    f"ccg_env.configs.{name}" for name in find_namespace_packages(where="configs", exclude=SKIP)
]

setup(packages=CODE_PACKAGES + CONFIG_PACKAGES)
