"""local.wheels: which wheel tags install on a Lambda runtime (no network: pip is never run here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from local import wheels
from local.template import load

AL2023_ARM = wheels.target("python3.12", "arm64")
AL2_X86 = wheels.target("python3.11", "x86_64")


@pytest.mark.parametrize("tag", [
    "py3-none-any",
    "py2.py3-none-any",
    "py38-none-any",
    "cp312-cp312-manylinux_2_28_aarch64",
    "cp312-cp312-manylinux_2_34_aarch64",
    "cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64",
    "cp312-cp312-manylinux2014_aarch64",
    "cp39-abi3-manylinux_2_17_aarch64",
    "cp312-none-manylinux_2_17_aarch64",
    "py3-none-manylinux_2_17_aarch64",
])
def test_accepted_on_al2023_arm64(tag):
    assert wheels.compatible(tag, AL2023_ARM)


@pytest.mark.parametrize("tag", [
    "cp312-cp312-manylinux_2_35_aarch64",  # newer glibc than Amazon Linux 2023's 2.34
    "cp312-cp312-manylinux_2_17_x86_64",  # other architecture
    "cp312-cp312-manylinux2014_x86_64",
    "cp312-cp312-manylinux1_x86_64",
    "cp312-cp312-musllinux_1_2_aarch64",  # musl, not glibc
    "cp312-cp312-linux_aarch64",  # not a portable wheel
    "cp312-cp312-macosx_11_0_arm64",
    "cp311-cp311-manylinux_2_17_aarch64",  # another CPython ABI
    "cp313-cp313-manylinux_2_17_aarch64",
    "cp312-cp312t-manylinux_2_17_aarch64",  # free-threaded build
    "cp313-abi3-manylinux_2_17_aarch64",  # stable ABI of a later Python
    "py313-none-any",
    "py2-none-any",
    "pp310-pypy310_pp73-manylinux_2_17_aarch64",
])
def test_refused_on_al2023_arm64(tag):
    assert not wheels.compatible(tag, AL2023_ARM)


def test_al2_is_older_glibc_and_knows_legacy_manylinux_tags():
    assert wheels.compatible("cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64", AL2_X86)
    assert wheels.compatible("cp311-cp311-manylinux1_x86_64", AL2_X86)
    assert wheels.compatible("cp311-cp311-manylinux_2_26_x86_64", AL2_X86)
    assert not wheels.compatible("cp311-cp311-manylinux_2_28_x86_64", AL2_X86)  # AL2 has glibc 2.26
    assert not wheels.compatible("cp311-cp311-manylinux_2_28_aarch64", AL2_X86)


def test_targets():
    assert (AL2023_ARM.python, AL2023_ARM.arch, AL2023_ARM.glibc) == ((3, 12), "aarch64", (2, 34))
    assert AL2023_ARM.platforms[0] == "manylinux_2_34_aarch64"
    assert AL2023_ARM.platforms[-2:] == ["manylinux_2_17_aarch64", "manylinux2014_aarch64"]
    assert "manylinux1_x86_64" in AL2_X86.platforms
    with pytest.raises(ValueError, match="unknown Lambda runtime"):
        wheels.target("python2.7", "arm64")
    with pytest.raises(ValueError, match="unknown Lambda architecture"):
        wheels.target("python3.12", "riscv64")


def test_parse_wheel_filename():
    wheel = wheels.parse_wheel_filename(
        "pydantic_core-2.46.4-cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64.whl")
    assert (wheel.name, wheel.version) == ("pydantic_core", "2.46.4")
    assert wheel.tags == ("cp312-cp312-manylinux_2_17_aarch64", "cp312-cp312-manylinux2014_aarch64")
    assert wheel.tag == "cp312-cp312-manylinux_2_17_aarch64.manylinux2014_aarch64"
    built = wheels.parse_wheel_filename("pkg-1.0-1-py2.py3-none-any.whl")  # with a build tag
    assert built.tags == ("py2-none-any", "py3-none-any")
    with pytest.raises(ValueError, match="not a wheel"):
        wheels.parse_wheel_filename("pkg-1.0.tar.gz")


def test_the_template_targets_one_consistent_platform_per_architecture_it_allows():
    targets, requirements, problems = wheels.targets_and_requirements(load().raw)
    assert problems == []
    # arm64 deployed, x86_64 for `sam local` on an x86_64 host (template.yaml's Architecture parameter)
    assert targets == [AL2023_ARM, wheels.target("python3.12", "x86_64")]
    assert wheels.ROOT / "layers" / "shared" / "requirements.txt" in requirements
    # the conversations worker image's (scikit-learn, scipy, numpy, yake) for the same platform
    assert wheels.ROOT / "layers" / "insights" / "requirements.txt" in requirements


def test_a_layer_built_for_another_runtime_is_reported():
    raw = {
        "Globals": {"Function": {"Runtime": "python3.12", "Architectures": ["arm64"]}},
        "Resources": {
            "Fn": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "nowhere"}},
            "Layer": {"Type": "AWS::Serverless::LayerVersion",
                      "Properties": {"ContentUri": "nowhere", "CompatibleRuntimes": ["python3.11"],
                                     "CompatibleArchitectures": ["x86_64"]},
                      "Metadata": {"BuildMethod": "python3.11", "BuildArchitecture": "x86_64"}},
        },
    }
    _, _, problems = wheels.targets_and_requirements(raw)
    assert len(problems) == 4


def test_a_layer_fixed_to_one_architecture_is_reported_for_the_other_the_parameter_allows():
    architecture = {"Ref": "Architecture"}
    raw = {
        "Parameters": {"Architecture": {"Type": "String", "Default": "arm64",
                                        "AllowedValues": ["arm64", "x86_64"]}},
        "Globals": {"Function": {"Runtime": "python3.12", "Architectures": [architecture]}},
        "Resources": {
            "Fn": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "nowhere"}},
            "Layer": {"Type": "AWS::Serverless::LayerVersion",
                      "Properties": {"ContentUri": "nowhere", "CompatibleRuntimes": ["python3.12"],
                                     "CompatibleArchitectures": [architecture]},
                      "Metadata": {"BuildMethod": "python3.12", "BuildArchitecture": "arm64"}},
        },
    }
    targets, _, problems = wheels.targets_and_requirements(raw)
    assert [each.arch for each in targets] == ["aarch64", "x86_64"]
    assert "Layer: Metadata.BuildArchitecture arm64 but functions run on x86_64" in problems


def test_pip_command_pins_the_target(tmp_path):
    command = wheels.pip_download_command(AL2023_ARM, [Path("req.txt")], tmp_path, python="python")
    assert command[:4] == ["python", "-m", "pip", "download"]
    assert "--only-binary=:all:" in command
    joined = " ".join(command)
    assert "--python-version 3.12 --abi cp312" in joined
    assert "--platform manylinux_2_34_aarch64" in joined
    assert "--platform manylinux_2_35_aarch64" not in joined
    assert "x86_64" not in joined
