#!/bin/sh
# The image's ENTRYPOINT, as in AWS's Lambda base images: the handler is the one argument (the image's
# CMD, or template.yaml's ImageConfig.Command). Under `sam local` the runtime interface emulator SAM
# mounts at /var/rapid runs this script with AWS_LAMBDA_RUNTIME_API set.
if [ $# -ne 1 ]; then
    echo "entrypoint requires the handler name to be the first argument" 1>&2
    exit 142
fi
export _HANDLER="$1"
if [ -z "${AWS_LAMBDA_RUNTIME_API}" ]; then
    exec /var/rapid/aws-lambda-rie /var/runtime/bootstrap
fi
exec /var/runtime/bootstrap
